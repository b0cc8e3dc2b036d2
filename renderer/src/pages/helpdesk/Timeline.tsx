import { apiUrl, client, unwrap } from '../../api';
import { Badge, Button } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import type { MessageAttachment, MessageDelivery, TicketMessage } from './types';

/** "12 KB", "1.4 MB": attachment sizes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * One timeline: replies, customer messages, internal notes (highlighted) and system events.
 * Bodies are plain text (React escapes them; nothing is rendered as HTML), including e-mails.
 */
export function Timeline({ ticketId, messages, canEdit, onChanged }: { ticketId: string; messages: TicketMessage[]; canEdit: boolean; onChanged: () => void }) {
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
          <li key={m.id} className={`hd-message hd-${m.authorType} ${m.isInternal ? 'hd-internal' : ''}`} data-kind={m.isInternal ? 'note' : m.authorType} data-message-id={m.id}>
            <header>
              <strong>{m.authorName}</strong>
              <span className="muted">{m.authorType === 'customer' ? 'Customer' : m.isInternal ? 'Internal note' : 'Agent reply'}</span>
              {m.email && (
                <span className="hd-email-from" title={`Message-ID ${m.email.messageId}`}>
                  <Badge tone="blue">E-mail</Badge> <span className="muted">from {m.email.from}</span>
                </span>
              )}
              <span className="muted hd-time">{formatDateTime(m.createdAt)}</span>
            </header>
            <div className="hd-body">{m.body}</div>
            {m.attachments.length > 0 && <Attachments ticketId={ticketId} attachments={m.attachments} />}
            {m.attachmentsNote && <p className="hd-attachments-note muted">{m.attachmentsNote}</p>}
            {m.delivery && <Delivery ticketId={ticketId} messageId={m.id} delivery={m.delivery} canEdit={canEdit} onChanged={onChanged} />}
          </li>
        ),
      )}
    </ol>
  );
}

function Attachments({ ticketId, attachments }: { ticketId: string; attachments: MessageAttachment[] }) {
  // A plain link downloads with the session cookie; the entity travels in the query (QBH).
  return (
    <ul className="hd-attachments" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id}>
          <a href={apiUrl('/api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}', { path: { ticketId, attachmentId: a.id } })} download={a.filename}>
            {a.filename}
          </a>{' '}
          <span className="muted">
            {formatSize(a.size)} · {a.contentType}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Delivery({ ticketId, messageId, delivery, canEdit, onChanged }: { ticketId: string; messageId: string; delivery: MessageDelivery; canEdit: boolean; onChanged: () => void }) {
  const resend = useAction(async () => {
    await unwrap(client.POST('/api/helpdesk/tickets/{ticketId}/messages/{messageId}/resend', { params: { path: { ticketId, messageId } } }));
    onChanged();
  });
  return (
    <div className="hd-delivery" data-delivery={delivery.state}>
      {delivery.state === 'queued' ? (
        <>
          <Badge tone="amber">Queued</Badge>
          <span className="muted">{delivery.error ? `E-mail to ${delivery.to} is not sent yet (${delivery.error}); Bureau keeps trying.` : `E-mail to ${delivery.to} is waiting to be sent.`}</span>
        </>
      ) : delivery.state === 'sent' ? (
        <>
          <Badge tone="green">Sent {delivery.sentAt ? formatDateTime(delivery.sentAt) : ''}</Badge>
          <span className="muted">E-mailed to {delivery.to}.</span>
        </>
      ) : (
        <>
          <Badge tone="red">Failed</Badge>
          <span>
            E-mail to {delivery.to} was not delivered{delivery.error ? `: ${delivery.error}` : '.'}
          </span>
          {canEdit && (
            <Button variant="secondary" busy={resend.pending} onClick={() => void resend.run()}>
              Try again
            </Button>
          )}
        </>
      )}
      {resend.error && (
        <span className="field-error" role="alert">
          {resend.error}
        </span>
      )}
    </div>
  );
}
