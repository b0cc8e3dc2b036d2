import { useState } from 'react';
import { client, unwrap } from '../../api';
import { useSession } from '../../session';
import { Button, ErrorBanner, Modal, Notice, Spinner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { EventDetail } from './EventDetail';
import { refreshLedger, useEventDetail } from './queries';

/** Approve, reject or reverse one event (with a reason), or decide one that waits. */
async function decideEvent(eventId: string, action: 'approve' | 'reject' | 'reverse', reason?: string) {
  const params = { path: { eventId } };
  if (action === 'approve') await unwrap(client.POST('/api/ledger/events/{eventId}/approve', { params }));
  else if (action === 'reject') await unwrap(client.POST('/api/ledger/events/{eventId}/reject', { params }));
  else await unwrap(client.POST('/api/ledger/events/{eventId}/reverse', { params, body: { reason: reason ?? '' } }));
}

export function EventDetailModal({ eventId, titleOf, onClose, onOpen }: { eventId: string; titleOf: (t: string) => string; onClose: () => void; onOpen: (id: string) => void }) {
  const session = useSession();
  const detail = useEventDetail(eventId);
  const act = useAction(async (action: 'approve' | 'reject' | 'reverse', reason?: string) => {
    await decideEvent(eventId, action, reason);
    await refreshLedger();
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
              <Button variant="danger" busy={act.pending} disabled={!reason.trim()} onClick={() => void act.run('reverse', reason.trim())}>
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
      <ErrorBanner error={detail.error?.message ?? act.error} />
      {reversing && (
        <div className="stack" data-testid="reverse-confirm">
          <Notice kind="warning">Reversing books an entry that undoes this event's posting, dated now. It stays in the journal with your name and reason, and cannot be undone.</Notice>
          <TextInput label="Reason (required)" value={reason} maxLength={500} onChange={(ev) => setReason(ev.target.value)} autoFocus />
        </div>
      )}
      {!e ? (
        <Spinner />
      ) : (
        <EventDetail event={e} onOpen={onOpen} />
      )}
    </Modal>
  );
}
