import { api } from '../../api';
import { useSession } from '../../session';
import { useState } from 'react';
import { Button, ErrorBanner, Modal, Notice, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { JournalLines } from './JournalLines';
import { StatusBadge } from './StatusBadge';
import type { LedgerEvent, LedgerEventDetail } from './types';

export function EventDetailModal({ eventId, titleOf, onClose, onChanged, onOpen }: { eventId: string; titleOf: (t: string) => string; onClose: () => void; onChanged: () => void; onOpen: (id: string) => void }) {
  const session = useSession();
  const detail = useAsync(() => api.get<LedgerEventDetail>(`/api/ledger/events/${eventId}`), [eventId]);
  const act = useAction(async (action: 'approve' | 'reject' | 'reverse', body: Record<string, unknown> = {}) => {
    await api.post<LedgerEvent>(`/api/ledger/events/${eventId}/${action}`, body);
    await detail.reload();
    onChanged();
    setReversing(false);
  });
  // Reversing books a correcting entry that stays in the journal: asked for, with a reason.
  const [reversing, setReversing] = useState(false);
  const [reason, setReason] = useState('');
  const e = detail.data;
  const canDecide = e?.postingStatus === 'pending_approval' && session.can('LEDGER.APPROVE');
  const canReverse = e?.postingStatus === 'posted' && session.can('LEDGER.POST');
  return (
    <Modal
      title={e ? titleOf(e.type) : 'Ledger event'}
      onClose={onClose}
      footer={
        <>
          {canReverse && !reversing && (
            <Button variant="danger" onClick={() => setReversing(true)}>
              Reverse…
            </Button>
          )}
          {canReverse && reversing && (
            <>
              <Button onClick={() => setReversing(false)}>Keep it</Button>
              <Button variant="danger" busy={act.pending} disabled={!reason.trim()} onClick={() => void act.run('reverse', { reason: reason.trim() })}>
                Reverse event
              </Button>
            </>
          )}
          {canDecide && (
            <>
              <Button variant="danger" busy={act.pending} onClick={() => void act.run('reject')}>
                Reject
              </Button>
              <Button variant="primary" busy={act.pending} onClick={() => void act.run('approve')}>
                Approve and post
              </Button>
            </>
          )}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <ErrorBanner error={detail.error ?? act.error} />
      {reversing && (
        <div className="stack" data-testid="reverse-confirm">
          <Notice kind="warning">Reversing books an entry that undoes this event's posting, dated now. It stays in the journal with your name and reason, and cannot be undone.</Notice>
          <TextInput label="Reason (required)" value={reason} maxLength={500} onChange={(ev) => setReason(ev.target.value)} autoFocus />
        </div>
      )}
      {!e ? (
        <Spinner />
      ) : (
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
      )}
    </Modal>
  );
}
