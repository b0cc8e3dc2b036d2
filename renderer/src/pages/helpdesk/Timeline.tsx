import { formatDateTime } from '../../ui/hooks';
import type { TicketMessage } from './types';

/** One timeline: replies, customer messages, internal notes (highlighted) and system events. */
export function Timeline({ messages }: { messages: TicketMessage[] }) {
  return (
    <ol className="hd-timeline" aria-label="Timeline">
      {messages.map((m) =>
        m.authorType === 'system' ? (
          <li key={m.id} className="hd-event" data-kind="system">
            <span className="hd-dot" aria-hidden />
            <span>{m.body}</span>
            <span className="muted"> · {formatDateTime(m.createdAt)}</span>
          </li>
        ) : (
          <li key={m.id} className={`hd-message hd-${m.authorType} ${m.isInternal ? 'hd-internal' : ''}`} data-kind={m.isInternal ? 'note' : m.authorType}>
            <header>
              <strong>{m.authorName}</strong>
              <span className="muted">{m.authorType === 'customer' ? 'Customer' : m.isInternal ? 'Internal note' : 'Agent reply'}</span>
              <span className="muted hd-time">{formatDateTime(m.createdAt)}</span>
            </header>
            <div className="hd-body">{m.body}</div>
          </li>
        ),
      )}
    </ol>
  );
}
