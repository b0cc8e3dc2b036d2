import crypto from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable, Tx } from '../db/tx.js';
import { signatureAudit, signatureRequests } from './tables.js';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditActor {
  type: 'user' | 'api_key' | 'signer' | 'system' | 'anonymous';
  id: string | null;
  name: string;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: 'Bureau' };

export interface AuditInput {
  entityId: string;
  requestId: string;
  type: string;
  actor: AuditActor;
  ip?: string | null;
  userAgent?: string | null;
  data?: Record<string, unknown>;
}

type AuditRow = typeof signatureAudit.$inferSelect;

/** JSON with object keys sorted at every level, so the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function hashAuditEntry(e: Omit<AuditRow, 'id' | 'hash'> & { id: string }): string {
  const body = canonicalJson({
    id: e.id,
    entityId: e.entityId,
    requestId: e.requestId,
    seq: e.seq,
    type: e.type,
    actorType: e.actorType,
    actorId: e.actorId,
    actorName: e.actorName,
    ip: e.ip,
    userAgent: e.userAgent,
    data: e.data,
    createdAt: e.createdAt,
  });
  return crypto.createHash('sha256').update(`${e.prevHash}\n${body}`).digest('hex');
}

/** Appends one entry to the request's chain; call inside the transaction of the change. */
export function appendAudit(ctx: Context, tx: Tx, input: AuditInput): AuditRow {
  const last = tx
    .select({ seq: signatureAudit.seq, hash: signatureAudit.hash })
    .from(signatureAudit)
    .where(and(eq(signatureAudit.entityId, input.entityId), eq(signatureAudit.requestId, input.requestId)))
    .orderBy(desc(signatureAudit.seq))
    .limit(1)
    .get();
  const entry = {
    id: ctx.ids.next(),
    entityId: input.entityId,
    requestId: input.requestId,
    seq: (last?.seq ?? 0) + 1,
    type: input.type,
    actorType: input.actor.type,
    actorId: input.actor.id,
    actorName: input.actor.name,
    ip: input.ip ?? null,
    userAgent: input.userAgent ? input.userAgent.slice(0, 400) : null,
    data: input.data ?? {},
    createdAt: nowIso(ctx),
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const row: AuditRow = { ...entry, hash: hashAuditEntry(entry) };
  tx.insert(signatureAudit).values(row).run();
  tx.update(signatureRequests).set({ auditHead: row.hash }).where(and(eq(signatureRequests.entityId, input.entityId), eq(signatureRequests.id, input.requestId))).run();
  return row;
}

export function presentAudit(r: AuditRow) {
  return {
    id: r.id,
    seq: r.seq,
    type: r.type,
    actor: { type: r.actorType as AuditActor['type'], id: r.actorId, name: r.actorName },
    ip: r.ip,
    userAgent: r.userAgent,
    data: r.data,
    createdAt: r.createdAt,
    prevHash: r.prevHash,
    hash: r.hash,
  };
}

export function listAudit(db: Queryable, entityId: string, requestId: string) {
  return db
    .select()
    .from(signatureAudit)
    .where(and(eq(signatureAudit.entityId, entityId), eq(signatureAudit.requestId, requestId)))
    .orderBy(asc(signatureAudit.seq))
    .all()
    .map(presentAudit);
}

/** Recomputes every hash and link; the first entry that does not match breaks the chain. */
export function verifyAuditChain(db: Queryable, entityId: string, requestId: string) {
  const rows = db
    .select()
    .from(signatureAudit)
    .where(and(eq(signatureAudit.entityId, entityId), eq(signatureAudit.requestId, requestId)))
    .orderBy(asc(signatureAudit.seq))
    .all();
  let prev = GENESIS_HASH;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const { hash, ...rest } = r;
    if (r.seq !== i + 1) return { valid: false, entries: rows.length, brokenAt: r.seq, reason: 'Missing or reordered entry', headHash: null };
    if (r.prevHash !== prev) return { valid: false, entries: rows.length, brokenAt: r.seq, reason: 'Entry does not link to the previous one', headHash: null };
    if (hashAuditEntry(rest) !== hash) return { valid: false, entries: rows.length, brokenAt: r.seq, reason: 'Entry content does not match its hash', headHash: null };
    prev = hash;
  }
  return { valid: true, entries: rows.length, brokenAt: null, reason: null, headHash: rows.length ? prev : null };
}
