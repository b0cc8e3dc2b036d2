/**
 * Reads the served OpenAPI document into what the isolation sweep needs: each operation's access
 * (public, any user, session, or entity-scoped with a permission and an API key scope), the places
 * where it takes an id ("slots": path and query parameters, JSON body properties at any depth), and
 * schema-valid request bodies with chosen ids filled in.
 */
import { randomUUID } from 'node:crypto';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export type EntitySource = 'Q' | 'QB' | 'QBH';
export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'session' }
  | { kind: 'entity'; source: EntitySource; permission: string; scope: string | null };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One place where an operation takes an id. */
export interface Slot {
  /** Unique within the operation, e.g. `path:ticketId`, `body:fields[].signerId`. */
  key: string;
  in: 'path' | 'query' | 'body';
  /** The name as the document spells it. */
  name: string;
  /** Key into the id table: `eventIds` → `eventId`; a bare `{id}` is named after its collection. */
  idName: string;
  /** A list of ids (`documentIds`). */
  array: boolean;
  required: boolean;
  /** Body only: property names from the root; `[]` steps into array items. */
  pointer: string[];
}

export interface Operation {
  method: Method;
  path: string;
  label: string;
  access: Access;
  slots: Slot[];
  /** The JSON request body schema, resolved; null when the document describes none. */
  body: JsonSchema | null;
  /** Required query parameters that are not ids (sampled on every request). */
  requiredQuery: { name: string; schema: JsonSchema }[];
  /** The success response is a server-sent event stream (never awaited to the end). */
  streams: boolean;
  isWrite: boolean;
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function parseOperations(doc: OpenApiDocument): Operation[] {
  const resolve = resolver(doc);
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      const method = m.toUpperCase() as Method;
      if (!METHODS.includes(method)) continue;
      const label = `${method} ${path}`;
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const body = bodySchema ? objectBranch(resolve(bodySchema), resolve) : null;
      const slots: Slot[] = [];
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') slots.push(paramSlot(p, path, 'path'));
        else if (p.in === 'query' && isIdLike(p.name, p.schema ?? {}, resolve)) slots.push(paramSlot(p, path, 'query'));
      }
      if (body) collectBodySlots(body, [], true, resolve, slots);
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
      const requiredQuery = (op.parameters ?? [])
        .filter((p) => p.in === 'query' && p.required && !slots.some((s) => s.key === `query:${p.name}`))
        .map((p) => ({ name: p.name, schema: p.schema ?? {} }));
      ops.push({
        method,
        path,
        label,
        access: accessOf(op, label, slots.some((s) => s.name === 'entityId')),
        slots,
        body,
        requiredQuery,
        streams: Boolean(success?.content?.['text/event-stream']),
        isWrite: method !== 'GET',
      });
    }
  }
  return ops;
}

/**
 * The access an operation declares. The document's security requirements say who may call it;
 * entity-scoped operations also carry our generator's note: "entityId: QBH (…). Session
 * permission: `X`. API key scope: `y`." (or "API keys are not accepted.").
 */
function accessOf(op: OpenApiOperation, label: string, takesEntityId: boolean): Access {
  const security = op.security ?? [];
  if (security.length === 0) return { kind: 'public' };
  const text = op.description ?? '';
  const source = /entityId: (QBH|QB|Q) \(/.exec(text)?.[1] as EntitySource | undefined;
  const apiKeyScopes = security.find((s) => 'apiKey' in s)?.apiKey;
  if (!source) {
    // Scopes and an entityId only exist on entity-scoped routes: the note must not have gone missing.
    if (takesEntityId || apiKeyScopes?.length) throw new Error(`${label}: takes an entityId or a scope but its description has no entity access note`);
    return apiKeyScopes ? { kind: 'user' } : { kind: 'session' };
  }
  const permission = /Session permission: `([A-Z_.]+)`/.exec(text)?.[1];
  if (!permission) throw new Error(`${label}: entity-scoped but no session permission in its description`);
  const scope = /API key scope: `([a-z:_]+)`/.exec(text)?.[1] ?? null;
  const declared = apiKeyScopes?.[0] ?? null;
  if (scope !== declared) throw new Error(`${label}: description says scope ${scope}, security says ${declared}`);
  return { kind: 'entity', source, permission, scope };
}

function paramSlot(p: OpenApiParameter, path: string, where: 'path' | 'query'): Slot {
  return { key: `${where}:${p.name}`, in: where, name: p.name, idName: idNameOf(p.name, path), array: false, required: where === 'path' || Boolean(p.required), pointer: [] };
}

/** `eventIds` → `eventId`; `{id}` after `/webhook-subscriptions` → `webhookSubscriptionId`. */
export function idNameOf(name: string, path: string): string {
  if (name === 'id') {
    const segments = path.split('/');
    const collection = segments[segments.indexOf('{id}') - 1] ?? '';
    const camel = collection.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()).replace(/s$/, '');
    return `${camel}Id`;
  }
  return name.endsWith('Ids') ? name.slice(0, -1) : name;
}

function collectBodySlots(schema: JsonSchema, pointer: string[], required: boolean, resolve: Resolve, out: Slot[]): void {
  for (const [prop, raw] of Object.entries(schema.properties ?? {})) {
    const ps = resolve(raw);
    const req = required && (schema.required ?? []).includes(prop);
    const at = [...pointer, prop];
    if (isIdLike(prop, ps, resolve)) {
      const branch = nonNull(ps, resolve);
      out.push({ key: `body:${at.join('.').replace(/\.\[\]/g, '[]')}`, in: 'body', name: prop, idName: idNameOf(prop, ''), array: branch.type === 'array', required: req, pointer: at });
      continue;
    }
    const nested = nestedObject(ps, resolve);
    if (nested) collectBodySlots(nested.schema, nested.array ? [...at, '[]'] : at, req, resolve, out);
  }
}

/** An id: `entityId`, any name ending in `Id`/`Ids`, or any uuid-formatted value (e.g. `assignedTo`). */
function isIdLike(name: string, schema: JsonSchema, resolve: Resolve): boolean {
  return /Ids?$/.test(name) || hasUuidFormat(schema, resolve);
}

function hasUuidFormat(raw: JsonSchema, resolve: Resolve): boolean {
  const s = resolve(raw);
  if (s.format === 'uuid') return true;
  if ([...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((b) => hasUuidFormat(b, resolve))) return true;
  return s.type === 'array' && s.items !== undefined && hasUuidFormat(s.items, resolve);
}

type Resolve = (s: JsonSchema) => JsonSchema;

function resolver(doc: OpenApiDocument): Resolve {
  const resolve = (s: JsonSchema): JsonSchema => {
    if (!s.$ref) return s;
    const name = s.$ref.split('/').pop() ?? '';
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`Unresolvable $ref ${s.$ref}`);
    return resolve(target);
  };
  return resolve;
}

/** The first branch of a union that is not `null` (for `anyOf: [uuid, null]` and `type: [string, null]`). */
function nonNull(raw: JsonSchema, resolve: Resolve): JsonSchema {
  const s = resolve(raw);
  const union = s.anyOf ?? s.oneOf;
  if (union) return nonNull(union.find((b) => resolve(b).type !== 'null') ?? union[0], resolve);
  if (Array.isArray(s.type)) return { ...s, type: s.type.find((t) => t !== 'null') };
  return s;
}

/** For a top-level body that is a union (sign or decline), the first object branch. */
function objectBranch(s: JsonSchema, resolve: Resolve): JsonSchema {
  const union = s.oneOf ?? s.anyOf;
  return union && !s.properties ? resolve(union[0]) : s;
}

function nestedObject(raw: JsonSchema, resolve: Resolve): { schema: JsonSchema; array: boolean } | null {
  const s = nonNull(raw, resolve);
  if (s.properties) return { schema: s, array: false };
  if (s.type === 'array' && s.items) {
    const items = nonNull(s.items, resolve);
    if (items.properties) return { schema: items, array: true };
  }
  return null;
}

/**
 * Values for properties whose constraints the document cannot express (a reachable URL, a known
 * event type, an e-mail address). Keyed by property name, whatever the operation.
 */
const VALUE_HINTS: Record<string, unknown> = {
  email: 'sweep-person@example.com',
  contactEmail: 'sweep-contact@example.com',
  url: 'https://example.com/sweep-hook',
  events: ['*'],
  newEventType: 'invoice_created',
  code: 'SWEEP1',
  recipientAddress: `0x${'11'.repeat(20)}`,
};

export interface Samples {
  /** A schema-valid value for a property that is not an id. */
  value(name: string, schema: JsonSchema): unknown;
  /** The object schema a property holds directly or as array items, if any. */
  nested(schema: JsonSchema): { schema: JsonSchema; array: boolean } | null;
}

export function samples(doc: OpenApiDocument, now: () => Date): Samples {
  const resolve = resolver(doc);
  const value = (name: string, raw: JsonSchema): unknown => {
    if (name in VALUE_HINTS) return VALUE_HINTS[name];
    const s = nonNull(raw, resolve);
    if (s.const !== undefined) return s.const;
    if (s.example !== undefined) return s.example;
    if (s.default !== undefined) return s.default;
    if (s.enum?.length) return s.enum[0];
    switch (s.type) {
      case 'boolean':
        return true;
      case 'integer':
      case 'number': {
        if (s.minimum !== undefined) return s.minimum;
        if (s.exclusiveMinimum !== undefined) return s.maximum !== undefined ? (s.exclusiveMinimum + s.maximum) / 2 : s.exclusiveMinimum + 1;
        return 1;
      }
      case 'array':
        return s.items && (s.minItems ?? 0) > 0 ? [value(name, s.items)] : [];
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const req of s.required ?? []) out[req] = value(req, s.properties?.[req] ?? {});
        return out;
      }
      case 'string': {
        if (s.format === 'date-time') return new Date(now().getTime() + 86_400_000).toISOString();
        if (s.format === 'email') return 'sweep@example.com';
        return 'sweep'.padEnd(s.minLength ?? 0, 'x');
      }
      default:
        throw new Error(`No sample value for property ${name}: ${JSON.stringify(s)}`);
    }
  };
  return { value, nested: (s) => nestedObject(s, resolve) };
}

/**
 * A JSON body for `op` that holds exactly the id slots in `ids` (slot key → value) and the
 * required properties, with sample values elsewhere. When that leaves nothing but ids for an
 * operation that needs something to do (an update with no field), one optional plain property
 * is added (booleans first, then enums, then the rest).
 */
export function buildBody(op: Operation, ids: Map<string, unknown>, s: Samples): Record<string, unknown> | undefined {
  if (!op.body) return undefined;
  const slotAt = new Map(op.slots.filter((slot) => slot.in === 'body').map((slot) => [slot.pointer.join('.'), slot]));
  const chosen = [...ids.keys()].filter((k) => k.startsWith('body:'));
  const build = (schema: JsonSchema, pointer: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [prop, ps] of Object.entries(schema.properties ?? {})) {
      const at = [...pointer, prop];
      const required = (schema.required ?? []).includes(prop);
      const slot = slotAt.get(at.join('.'));
      if (slot) {
        if (ids.has(slot.key)) out[prop] = ids.get(slot.key);
        else if (required) throw new Error(`${op.label}: no value for the required ${slot.key}`);
        continue;
      }
      const nested = s.nested(ps);
      const prefix = `body:${at.join('.')}`;
      const holdsChosen = chosen.some((k) => k.startsWith(`${prefix}.`) || k.startsWith(`${prefix}[]`));
      if (nested && (required || holdsChosen)) out[prop] = nested.array ? [build(nested.schema, [...at, '[]'])] : build(nested.schema, at);
      else if (required) out[prop] = s.value(prop, ps);
    }
    return out;
  };
  const body = build(op.body, []);
  const optionalIdIncluded = op.slots.some((slot) => slot.in === 'body' && !slot.required && slot.name !== 'entityId' && ids.has(slot.key));
  if (!optionalIdIncluded && Object.keys(body).every((k) => slotAt.has(k))) {
    const rank = (ps: JsonSchema) => (ps.type === 'boolean' ? 0 : ps.enum ? 1 : 2);
    const plain = Object.entries(op.body.properties ?? {})
      .filter(([prop]) => !slotAt.has(prop) && !(prop in body))
      .sort(([, a], [, b]) => rank(a) - rank(b))[0];
    if (plain) body[plain[0]] = s.value(plain[0], plain[1]);
  }
  return body;
}

/** A fresh id, never issued by the server, in the slot's shape. */
export function randomValue(slot: Slot): string | string[] {
  return slot.array ? [randomUUID()] : randomUUID();
}
