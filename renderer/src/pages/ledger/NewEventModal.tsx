import { useEffect, useRef, useState } from 'react';
import type { ErrorSchema } from '@rjsf/utils';
import { client, unwrap } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { refreshLedger } from './queries';
import type { EventType } from './types';
import { PayloadForm, showFirstError, toErrorSchema } from './PayloadForm';

/**
 * Records a business event by hand: pick a type, fill in the form its payload schema describes
 * (validated before anything is sent, so a typo never becomes a permanent failed event), post.
 * The raw JSON editor stays as an advanced option.
 */
export function NewEventModal({ types, onClose, onPosted }: { types: EventType[]; onClose: () => void; onPosted: (id: string) => void }) {
  const [type, setType] = useState(types[0]?.type ?? '');
  const def = types.find((t) => t.type === type);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [formData, setFormData] = useState<Record<string, unknown>>({});
  const [payload, setPayload] = useState('{}');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>(undefined);
  const [eventErrors, setEventErrors] = useState<string[]>([]);
  const choose = (t: string) => {
    setType(t);
    setFormData({});
    setPayload('{}');
    setJsonError(null);
    setFieldErrors(undefined);
    setEventErrors([]);
  };
  const switchTo = (next: 'form' | 'json') => {
    if (next === 'json') setPayload(JSON.stringify(formData, null, 2));
    else {
      try {
        setFormData(JSON.parse(payload) as Record<string, unknown>);
      } catch {
        setJsonError('The payload is not valid JSON');
        return;
      }
    }
    setJsonError(null);
    setMode(next);
  };
  // The first field with an error is brought into view (a long form scrolls inside the modal).
  const formRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fieldErrors) showFirstError(formRef.current);
  }, [fieldErrors]);
  const submit = useAction(async () => {
    let parsed: unknown = formData;
    if (mode === 'json') {
      try {
        parsed = JSON.parse(payload);
      } catch {
        setJsonError('The payload is not valid JSON');
        return;
      }
    }
    // Checked first in both modes: untouched or mistyped fields never become a failed event.
    const check = await unwrap(client.POST('/api/ledger/events/check', { body: { type, payload: parsed as Record<string, unknown> } }));
    const { fields, general } = toErrorSchema(check.errors);
    setFieldErrors(fields);
    setEventErrors(mode === 'form' ? general : check.errors.map((e) => (e.path.length ? `${e.path.join('.')}: ${e.message}` : e.message)));
    if (check.outcome === 'failed') return;
    const event = await unwrap(client.POST('/api/ledger/events', { body: { type, payload: parsed as Record<string, unknown> } }));
    await refreshLedger();
    onPosted(event.id);
  });
  return (
    <Modal
      title="Record a business event"
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={() => switchTo(mode === 'form' ? 'json' : 'form')}>
            {mode === 'form' ? 'Edit as JSON (advanced)' : 'Back to the form'}
          </Button>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={submit.pending} onClick={() => void submit.run()}>
            Record and post
          </Button>
        </>
      }
    >
      <div className="form ledger-event-form schema-form" ref={formRef}>
        <ErrorBanner error={submit.error} />
        {eventErrors.length > 0 && <ErrorBanner error={eventErrors.join(' · ')} />}
        <SelectInput label="Event type" value={type} onChange={(e) => choose(e.target.value)} options={types.map((t) => ({ value: t.type, label: t.title }))} />
        {def && (
          <p className="muted" style={{ margin: 0, fontSize: 13 }} data-testid="event-type-help">
            {def.description} {def.rule ?? 'This type is recorded without posting.'}
          </p>
        )}
        {mode === 'form' ? (
          <PayloadForm def={def} formData={formData} errors={fieldErrors} onChange={setFormData} />
        ) : (
          <TextArea label="Payload (JSON)" placeholder={JSON.stringify(def?.example ?? {}, null, 2)} value={payload} onChange={(e) => (setPayload(e.target.value), setJsonError(null))} error={jsonError} rows={10} style={{ fontFamily: 'var(--mono)', fontSize: 12 }} />
        )}
      </div>
    </Modal>
  );
}
