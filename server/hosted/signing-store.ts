// The signing core's store on the hosted instance: the rows of a request as mirrored here (read
// under the entity's lock, hosted/signing.ts `load`), and each change a use case makes collected
// as one of the hosted instance's own changes, appended to the entity's log as one group
// (mirror.ts `recordHostedChanges`). Status moves become guarded transitions; every audit entry
// moves the request's `audit_head` under a guard, so the chain stays one chain.
import { nextAuditEntry, type AuditInput, type RequestStore, type SignerMailStore, type SignerRow, type SigningState, type SigningStore } from '../documents/index.js';
import type { HostedContext } from './context.js';
import type { HostedChange } from './mirror.js';

/** A request as the signing core reads it here, with the newest entry of its audit chain. */
export interface HostedRequestState {
  entityId: string;
  r: SigningState['r'];
  head: { seq: number; hash: string };
}

export interface HostedStore<S> {
  store: S;
  /** The changes made, in order: what `recordHostedChanges` appends. */
  changes(): HostedChange[];
  /** The signers the use case invited (their mail is queued by the caller, in the same transaction). */
  invited: SignerRow[];
}

type Columns = HostedChange['columns'];

/** A patch of drizzle (camelCase) keys as the log's column names. */
const snake = (patch: Record<string, Columns[string] | undefined>): Columns => Object.fromEntries(Object.entries(patch).flatMap(([k, v]) => (v === undefined ? [] : [[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]])));

/**
 * One entry of the request's audit chain after `l.head`, as the fact the desktop would have written,
 * and the request's move of its `audit_head` (guarded: an entry another writer appended first
 * refuses this one), carrying `requestColumns` and `expect` of the same change.
 */
export function auditChanges(h: HostedContext, l: HostedRequestState, entry: AuditInput, createdAt: string, requestColumns: Columns = {}, expect: Columns = {}): HostedChange[] {
  const e = nextAuditEntry(l.head, { id: h.ids.next(), entityId: l.entityId, requestId: l.r.id, createdAt }, entry);
  const fact: HostedChange = {
    table: 'signature_audit',
    rowId: e.id,
    op: 'fact',
    columns: { id: e.id, entity_id: e.entityId, request_id: e.requestId, seq: e.seq, type: e.type, actor_type: e.actorType, actor_id: e.actorId, actor_name: e.actorName, ip: e.ip, user_agent: e.userAgent, data: JSON.stringify(e.data), created_at: e.createdAt, prev_hash: e.prevHash, hash: e.hash },
  };
  const move: HostedChange = {
    table: 'signature_requests',
    rowId: l.r.id,
    op: 'transition',
    columns: { ...requestColumns, audit_head: e.hash, updated_at: e.createdAt },
    expect: { ...expect, audit_head: l.r.auditHead ?? null },
  };
  return [fact, move];
}

/**
 * A domain event this instance causes (a signer on its pages), as the fact a device writes with
 * its own events: it reaches the webhook deliverers once, from here; devices replay it locally
 * for their own consumers only (documents/hosted-signing.ts).
 */
function eventChange(h: HostedContext, entityId: string, type: string, data: Record<string, unknown>, createdAt: string): HostedChange {
  const id = h.ids.next();
  return { table: 'entity_events', rowId: id, op: 'fact', columns: { id, entity_id: entityId, type, data: JSON.stringify(data), created_at: createdAt, origin: 'hosted' } };
}

/** The request's changes, stamped `now`. A request patch travels with the next audit entry's move of the head. */
export function hostedRequestStore(h: HostedContext, l: HostedRequestState, now: string): HostedStore<RequestStore> {
  const out: HostedChange[] = [];
  let pending: { columns: Columns; expect: Columns } | null = null as { columns: Columns; expect: Columns } | null;
  let head = { ...l };
  const store: RequestStore = {
    request: l.r,
    updateRequest(patch, expect) {
      pending = { columns: { ...pending?.columns, ...snake(patch) }, expect: { ...pending?.expect, ...expect } };
    },
    appendAudit(entry) {
      const [fact, move] = auditChanges(h, head, entry, now, pending?.columns, pending?.expect);
      pending = null;
      out.push(fact, move);
      head = { ...head, r: { ...head.r, auditHead: String(fact.columns.hash) }, head: { seq: Number(fact.columns.seq), hash: String(fact.columns.hash) } };
    },
    recordEvent: (type, data) => void out.push(eventChange(h, l.entityId, type, data, now)),
    // The request's creator is told on the devices, when this change reaches them (documents/hosted-signing.ts).
    tellOwner: () => undefined,
  };
  const changes = () => (pending ? [...out, { table: 'signature_requests', rowId: l.r.id, op: 'transition' as const, columns: pending.columns, expect: pending.expect }] : out);
  return { store, changes, invited: [] };
}

/** One signer's changes: a status move is a guarded transition, anything else an upsert of the columns. */
export function hostedSigningStore(h: HostedContext, l: HostedRequestState & SigningState, now: string): HostedStore<SigningStore> {
  const request = hostedRequestStore(h, l, now);
  const out: HostedChange[] = [];
  const invited: SignerRow[] = [];
  // Changes to the signer and fields come before the audit entry and its move, as the desktop writes them.
  const store: SigningStore = {
    ...request.store,
    state: l,
    updateSigner: (patch, expect) => void out.push(expect ? { table: 'signers', rowId: l.s.id, op: 'transition', columns: snake(patch), expect } : { table: 'signers', rowId: l.s.id, op: 'upsert', columns: snake(patch) }),
    fillFields: (values) => void out.push(...values.map((v): HostedChange => ({ table: 'signature_fields', rowId: v.id, op: 'upsert', columns: { value: v.value, filled_at: v.filledAt } }))),
    inviteSigners: (next) => void invited.push(...next),
  };
  return { store, changes: () => [...out, ...request.changes()], invited };
}

/**
 * The store of a signer's invitation or reminder going out from here (signing-mail.ts): the mail
 * is the one being sent, so nothing more is queued. The signer's columns set one after another
 * (the new link's hash, then when they were asked) are one upsert, before the audit entry.
 */
export function hostedMailingStore(h: HostedContext, l: HostedRequestState, now: string): HostedStore<SignerMailStore> {
  const request = hostedRequestStore(h, l, now);
  const out: HostedChange[] = [];
  const store: SignerMailStore = {
    updateSignerOf(signerId, patch) {
      const last = out.at(-1);
      if (last?.table === 'signers' && last.rowId === signerId && last.op === 'upsert') last.columns = { ...last.columns, ...snake(patch) };
      else out.push({ table: 'signers', rowId: signerId, op: 'upsert', columns: snake(patch) });
    },
    mailSigner: () => undefined,
    appendAudit: (entry) => request.store.appendAudit(entry),
  };
  return { store, changes: () => [...out, ...request.changes()], invited: [] };
}
