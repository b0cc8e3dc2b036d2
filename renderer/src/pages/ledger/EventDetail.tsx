import { useSession } from '../../session';
import { Button, Notice } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { JournalLines } from './JournalLines';
import { StatusBadge } from './StatusBadge';
import type { LedgerEventDetail } from './types';

/** What an event is: status, ids, payload and the journal entries it booked. */
export function EventDetail({ event: e, onOpen }: { event: LedgerEventDetail; onOpen: (id: string) => void }) {
  const session = useSession();
  return (
    <div className="stack" data-testid="ledger-event-detail">
      <div className="row">
        <StatusBadge status={e.postingStatus} />
        <span className="muted">{formatDateTime(e.timestamp)}</span>
        <span className="muted">source {e.source}</span>
        <span className="muted">schema v{e.schemaVersion}</span>
      </div>
      {e.postingError && <Notice kind="warning">{e.postingError}</Notice>}
      {e.postingStatus === 'pending_approval' && !session.can('LEDGER.APPROVE') && <Notice>This event is waiting for someone with approval rights.</Notice>}
      {e.reclassifiedTo && (
        <Notice>
          Reclassified: its entry was reversed and a replacement event was posted.
          <Button variant="ghost" onClick={() => onOpen(e.reclassifiedTo!)}>
            Open replacement
          </Button>
        </Notice>
      )}
      {e.reclassifiedFrom && (
        <Notice>
          Replaces a reclassified event.
          <Button variant="ghost" onClick={() => onOpen(e.reclassifiedFrom!)}>
            Open original
          </Button>
        </Notice>
      )}
      <dl className="muted" style={{ margin: 0, display: 'grid', gridTemplateColumns: '140px 1fr', gap: '4px 12px', fontSize: 13 }}>
        <dt>Event id</dt>
        <dd className="mono" style={{ margin: 0 }}>
          {e.id}
        </dd>
        <dt>Recorded by</dt>
        <dd style={{ margin: 0 }}>{e.recordedBy ? e.recordedBy.name : 'the system'}</dd>
        {e.correlationId && (
          <>
            <dt>Correlation id</dt>
            <dd style={{ margin: 0 }}>{e.correlationId}</dd>
          </>
        )}
        {e.idempotencyKey && (
          <>
            <dt>Idempotency key</dt>
            <dd style={{ margin: 0 }}>{e.idempotencyKey}</dd>
          </>
        )}
      </dl>
      <div>
        <h3 style={{ marginBottom: 6 }}>Payload</h3>
        <pre className="mono" style={{ margin: 0, padding: 10, background: 'var(--surface-2)', borderRadius: 8, overflow: 'auto', fontSize: 12 }}>
          {JSON.stringify(e.payload, null, 2)}
        </pre>
      </div>
      <div className="stack" style={{ gap: 10 }}>
        <h3>Journal</h3>
        {e.entries.length === 0 ? <p className="muted" style={{ margin: 0 }}>Nothing posted.</p> : e.entries.map((entry) => <JournalLines key={entry.id} entry={entry} />)}
      </div>
    </div>
  );
}
