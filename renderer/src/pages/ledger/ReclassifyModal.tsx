import { useState } from 'react';
import { api } from '../../api';
import { Badge, Button, ErrorBanner, Modal, Notice, SelectInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import type { EventType, ReclassifyResult } from './types';

/** Picks the new type, runs the batch, then shows one result per event. */
export function ReclassifyModal({ eventIds, types, onClose, onDone }: { eventIds: string[]; types: EventType[]; onClose: () => void; onDone: () => void }) {
  const postingTypes = types.filter((t) => t.posts);
  const [newEventType, setNewEventType] = useState(postingTypes[0]?.type ?? '');
  const [result, setResult] = useState<ReclassifyResult | null>(null);
  const submit = useAction(async () => {
    const r = await api.post<ReclassifyResult>('/api/ledger/events/batch-reclassify', { eventIds, newEventType });
    setResult(r);
    onDone();
  });
  // Events refused because the correction would leave a balance impossible: the person decides.
  const refused = result?.results.filter((r) => r.impossibleBalances?.length).map((r) => r.eventId) ?? [];
  const force = useAction(async () => {
    const r = await api.post<ReclassifyResult>('/api/ledger/events/batch-reclassify', { eventIds: refused, newEventType, force: true });
    setResult((prev) => prev && { summary: { total: prev.summary.total, succeeded: prev.summary.succeeded + r.summary.succeeded, failed: prev.summary.failed - r.summary.succeeded }, results: prev.results.map((x) => r.results.find((y) => y.eventId === x.eventId) ?? x) });
    onDone();
  });
  return (
    <Modal
      title="Reclassify events"
      onClose={onClose}
      footer={
        result ? (
          <>
            {refused.length > 0 && (
              <Button variant="danger" busy={force.pending} onClick={() => void force.run()}>
                Reclassify anyway ({refused.length})
              </Button>
            )}
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" busy={submit.pending} onClick={() => void submit.run()}>
              Reclassify {eventIds.length} event{eventIds.length === 1 ? '' : 's'}
            </Button>
          </>
        )
      }
    >
      <ErrorBanner error={submit.error ?? force.error} />
      {!result ? (
        <div className="form">
          <p className="muted" style={{ margin: 0 }}>
            Each posted event's journal entry is reversed and the event is posted again under the new type, with the same payload. Events that cannot be reclassified are reported and left as they are.
          </p>
          <SelectInput label="New event type" value={newEventType} onChange={(e) => setNewEventType(e.target.value)} options={postingTypes.map((t) => ({ value: t.type, label: t.title }))} />
        </div>
      ) : (
        <div className="stack" data-testid="reclassify-results">
          <Notice kind={result.summary.failed ? 'warning' : 'success'}>
            {result.summary.succeeded} of {result.summary.total} reclassified{result.summary.failed ? `, ${result.summary.failed} failed` : ''}.
          </Notice>
          <div className="table-wrap">
            <table className="table" aria-label="Reclassification results">
              <thead>
                <tr>
                  <th>Event</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {result.results.map((r) => (
                  <tr key={r.eventId} data-result-for={r.eventId}>
                    <td className="mono" style={{ fontSize: 12 }}>
                      {r.eventId.slice(0, 8)}…
                    </td>
                    <td>
                      <Badge tone={r.success ? 'green' : 'red'}>{r.success ? 'Done' : 'Failed'}</Badge> <span>{r.message}</span>
                      {r.impossibleBalances?.map((b) => (
                        <div key={`${b.accountId}-${b.currency}`} className="muted" data-impossible-balance={b.code}>
                          {b.name} ({b.code}) would be {b.balance} {b.currency}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Modal>
  );
}
