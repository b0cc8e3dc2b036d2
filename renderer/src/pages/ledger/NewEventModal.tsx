import { useState } from 'react';
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { api } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import type { EventType, LedgerEvent } from './types';

/** "netAmount" → "Net amount": field labels in words. */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** The type's payload JSON Schema as the form reads it: labelled fields, without the draft marker it does not take. */
function formSchema(def: EventType | undefined): RJSFSchema {
  const { $schema: _ignored, ...schema } = (def?.payloadSchema ?? { type: 'object' }) as RJSFSchema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, p]) => [key, typeof p === 'object' ? { title: words(key), ...p } : p]));
  return { ...schema, properties, title: undefined };
}

// The modal's own button submits; the form shows each field's description as its hint.
const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/**
 * The form validates nothing in the browser: JSON-schema validators compile to code with `eval`,
 * which this app's Content-Security-Policy forbids. The server's own check (the payload's zod
 * schema and the posting rule, POST /api/ledger/events/check) is the one validation, shown per field.
 */
const serverValidated: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
};

interface EventCheck {
  outcome: 'posted' | 'pending_approval' | 'unposted' | 'failed';
  errors: { path: (string | number)[]; message: string }[];
}

/** The check's field errors as the form shows them, under each field; others for the banner. */
function toErrorSchema(errors: EventCheck['errors']): { fields: ErrorSchema; general: string[] } {
  const fields: Record<string, unknown> = {};
  const general: string[] = [];
  for (const e of errors) {
    if (e.path.length === 0) {
      general.push(e.message);
      continue;
    }
    let node = fields;
    for (const key of e.path) node = (node[String(key)] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(e.message);
  }
  return { fields: fields as ErrorSchema, general };
}

/**
 * Records a business event by hand: pick a type, fill in the form its payload schema describes
 * (validated before anything is sent, so a typo never becomes a permanent failed event), post.
 * The raw JSON editor stays as an advanced option.
 */
export function NewEventModal({ types, onClose, onPosted }: { types: EventType[]; onClose: () => void; onPosted: (id: string) => void }) {
  const [type, setType] = useState(types[0]?.type ?? '');
  const def = types.find((t) => t.type === type);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [formData, setFormData] = useState<Record<string, unknown>>(() => ({ ...(types[0]?.example ?? {}) }));
  const [payload, setPayload] = useState(() => JSON.stringify(types[0]?.example ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>(undefined);
  const [eventErrors, setEventErrors] = useState<string[]>([]);
  const choose = (t: string) => {
    const example = types.find((x) => x.type === t)?.example ?? {};
    setType(t);
    setFormData({ ...example });
    setPayload(JSON.stringify(example, null, 2));
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
  const submit = useAction(async () => {
    let parsed: unknown = formData;
    if (mode === 'form') {
      const check = await api.post<EventCheck>('/api/ledger/events/check', { type, payload: formData });
      const { fields, general } = toErrorSchema(check.errors);
      setFieldErrors(check.errors.length ? fields : undefined);
      setEventErrors(general);
      if (check.outcome === 'failed') return;
    } else {
      try {
        parsed = JSON.parse(payload);
      } catch {
        setJsonError('The payload is not valid JSON');
        return;
      }
    }
    const event = await api.post<LedgerEvent>('/api/ledger/events', { type, payload: parsed });
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
      <div className="form ledger-event-form schema-form">
        <ErrorBanner error={submit.error} />
        {eventErrors.length > 0 && <ErrorBanner error={eventErrors.join(' · ')} />}
        <SelectInput label="Event type" value={type} onChange={(e) => choose(e.target.value)} options={types.map((t) => ({ value: t.type, label: t.title }))} />
        {def && (
          <p className="muted" style={{ margin: 0, fontSize: 13 }} data-testid="event-type-help">
            {def.description} {def.rule ?? 'This type is recorded without posting.'}
          </p>
        )}
        {mode === 'form' ? (
          <Form
            key={type}
            schema={formSchema(def)}
            uiSchema={uiSchema}
            validator={serverValidated}
            formData={formData}
            extraErrors={fieldErrors}
            onChange={(e) => setFormData((e.formData ?? {}) as Record<string, unknown>)}
            showErrorList={false}
            noHtml5Validate
          />
        ) : (
          <TextArea label="Payload (JSON)" value={payload} onChange={(e) => (setPayload(e.target.value), setJsonError(null))} error={jsonError} rows={10} style={{ fontFamily: 'var(--mono)', fontSize: 12 }} />
        )}
      </div>
    </Modal>
  );
}
