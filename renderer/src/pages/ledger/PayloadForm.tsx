// The form an event type's payload JSON Schema describes, shared by "Record a business event" and
// "Reclassify": labelled fields, the type's example as placeholders, the server's check per field.
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import type { EventCheck, EventType } from './types';

/** "netAmount" → "Net amount": field labels in words. */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** The type's payload JSON Schema as the form reads it: labelled fields, without the draft marker it does not take. */
function formSchema(def: EventType | undefined): RJSFSchema {
  const { $schema: _ignored, ...schema } = (def?.payloadSchema ?? { type: 'object' }) as RJSFSchema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, p]) => [key, typeof p === 'object' ? { title: words(key), ...p } : p]));
  return { ...schema, properties, title: undefined };
}

/** The type's example as placeholders ("e.g. INV-1001"), never as values: untouched fields stay empty. */
function placeholdersOf(example: unknown): UiSchema {
  if (Array.isArray(example)) return example.length ? { items: placeholdersOf(example[0]) } : {};
  if (example !== null && typeof example === 'object') return Object.fromEntries(Object.entries(example).map(([key, value]) => [key, placeholdersOf(value)]));
  return { 'ui:placeholder': `e.g. ${String(example)}` };
}

// The modal's own button submits; the form shows each field's description as its hint.
const uiSchemaOf = (def: EventType | undefined): UiSchema => ({ ...placeholdersOf(def?.example ?? {}), 'ui:submitButtonOptions': { norender: true } });

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

export type { EventCheck };

/** The check's field errors as the form shows them, under each field; others for the banner. */
export function toErrorSchema(errors: EventCheck['errors']): { fields: ErrorSchema | undefined; general: string[] } {
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
  return { fields: errors.some((e) => e.path.length > 0) ? (fields as ErrorSchema) : undefined, general };
}

/** Brings the first field with an error into view (a long form scrolls inside its modal). */
export function showFirstError(container: HTMLElement | null) {
  container?.querySelector('.error-detail')?.closest('.form-group')?.scrollIntoView({ block: 'center' });
}

export function PayloadForm({ def, formData, errors, onChange }: { def: EventType | undefined; formData: Record<string, unknown>; errors: ErrorSchema | undefined; onChange: (data: Record<string, unknown>) => void }) {
  return (
    <Form
      key={def?.type}
      schema={formSchema(def)}
      uiSchema={uiSchemaOf(def)}
      validator={serverValidated}
      formData={formData}
      extraErrors={errors}
      onChange={(e) => onChange((e.formData ?? {}) as Record<string, unknown>)}
      showErrorList={false}
      noHtml5Validate
    />
  );
}
