import { useEffect, useRef, useState } from 'react';
import type { ErrorSchema } from '@rjsf/utils';
import { client, unwrap, useEntityQuery } from '../../api';
import { Button, ErrorBanner, Modal, Notice, SelectInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { refreshLedger } from './queries';
import type { EventType, ReclassifyResult } from './types';
import { PayloadForm, showFirstError, toErrorSchema } from './PayloadForm';
import { prefillPayload, reclassifyChoices } from './reclassify-choices';
import { ReclassifyResults } from './ReclassifyResults';

/**
 * Picks the new type among those that make sense for the selection, asks (for one event) for the
 * fields the new type needs with the old values prefilled, runs the batch, then shows one result
 * per event.
 */
export function ReclassifyModal({ eventIds, types, onClose, onDone }: { eventIds: string[]; types: EventType[]; onClose: () => void; onDone: () => void }) {
  const events = useEntityQuery(['ledger', 'reclassify-selection', eventIds], () => Promise.all(eventIds.map((eventId) => unwrap(client.GET('/api/ledger/events/{eventId}', { params: { path: { eventId } } })))));
  const { choices, mixed } = reclassifyChoices(types, events.data ?? []);
  const [newEventType, setNewEventType] = useState('');
  const chosen = newEventType || choices[0]?.type || '';
  const def = types.find((t) => t.type === chosen);
  const single = events.data?.length === 1 ? events.data[0] : null;
  const [formData, setFormData] = useState<Record<string, unknown> | null>(null);
  const payload = formData ?? (single ? prefillPayload(def, single.payload) : {});
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>(undefined);
  const [eventErrors, setEventErrors] = useState<string[]>([]);
  const [result, setResult] = useState<ReclassifyResult | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fieldErrors) showFirstError(formRef.current);
  }, [fieldErrors]);
  const choose = (type: string) => {
    setNewEventType(type);
    setFormData(null);
    setFieldErrors(undefined);
    setEventErrors([]);
  };
  const submit = useAction(async () => {
    if (single) {
      const check = await unwrap(client.POST('/api/ledger/events/check', { body: { type: chosen, payload } }));
      const { fields, general } = toErrorSchema(check.errors);
      setFieldErrors(fields);
      setEventErrors(general);
      if (check.outcome === 'failed') return;
    }
    const body = { eventIds, newEventType: chosen, ...(single ? { payloads: { [single.id]: payload } } : {}) };
    setResult(await unwrap(client.POST('/api/ledger/events/batch-reclassify', { body })));
    onDone();
    await refreshLedger();
  });
  // Events refused because the correction would leave a balance impossible: the person decides.
  const refused = result?.results.filter((r) => r.impossibleBalances?.length).map((r) => r.eventId) ?? [];
  const force = useAction(async () => {
    const forced = { eventIds: refused, newEventType: chosen, force: true, ...(single ? { payloads: { [single.id]: payload } } : {}) };
    const r = await unwrap(client.POST('/api/ledger/events/batch-reclassify', { body: forced }));
    setResult((prev) => prev && { summary: { total: prev.summary.total, succeeded: prev.summary.succeeded + r.summary.succeeded, failed: prev.summary.failed - r.summary.succeeded }, results: prev.results.map((x) => r.results.find((y) => y.eventId === x.eventId) ?? x) });
    onDone();
    await refreshLedger();
  });
  const footer = result ? (
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
      <Button variant="primary" busy={submit.pending} disabled={!def} onClick={() => void submit.run()}>
        Reclassify {eventIds.length} event{eventIds.length === 1 ? '' : 's'}
      </Button>
    </>
  );
  return (
    <Modal title="Reclassify events" onClose={onClose} footer={footer}>
      <ErrorBanner error={submit.error ?? force.error ?? events.error?.message} />
      {result ? (
        <ReclassifyResults result={result} />
      ) : !events.data ? (
        <p className="muted">Loading the selected events…</p>
      ) : mixed ? (
        <Notice kind="warning">The selected events are about different sides of the business (money in and money out, or between your own accounts). Reclassify each kind separately.</Notice>
      ) : choices.length === 0 ? (
        <Notice kind="warning">No other type books events like these.</Notice>
      ) : (
        <div className="form ledger-event-form schema-form" ref={formRef}>
          <p className="muted" style={{ margin: 0 }}>
            Each posted event's journal entry is reversed and the event is posted again under the new type
            {single ? ', with the fields below.' : ', with the same payload. To fill in fields the new type needs, reclassify one event at a time.'} Events that cannot be reclassified are reported and left as they are.
          </p>
          <SelectInput label="New event type" value={chosen} onChange={(e) => choose(e.target.value)} options={choices.map((t) => ({ value: t.type, label: t.title }))} />
          {eventErrors.length > 0 && <ErrorBanner error={eventErrors.join(' · ')} />}
          {single && <PayloadForm def={def} formData={payload} errors={fieldErrors} onChange={setFormData} />}
        </div>
      )}
    </Modal>
  );
}
