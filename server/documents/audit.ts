import { and, asc, desc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable, Tx } from '../db/tx.js';
import { signatureAudit, signatureRequests } from './tables.js';
import { GENESIS_HASH, hashAuditEntry, nextAuditEntry, type AuditActor, type AuditInput as CoreAuditInput } from './signing-core/index.js';

export { GENESIS_HASH, SYSTEM_ACTOR, canonicalJson, hashAuditEntry, type AuditActor } from './signing-core/index.js';

export interface AuditInput extends CoreAuditInput {
  entityId: string;
  requestId: string;
}

type AuditRow = typeof signatureAudit.$inferSelect;

/** Appends one entry to the request's chain; call inside the transaction of the change. */
export function appendAudit(ctx: Context, tx: Tx, input: AuditInput): AuditRow {
  const last = tx
    .select({ seq: signatureAudit.seq, hash: signatureAudit.hash })
    .from(signatureAudit)
    .where(and(eq(signatureAudit.entityId, input.entityId), eq(signatureAudit.requestId, input.requestId)))
    .orderBy(desc(signatureAudit.seq))
    .limit(1)
    .get();
  const head = { seq: last?.seq ?? 0, hash: last?.hash ?? GENESIS_HASH };
  const row: AuditRow = nextAuditEntry(head, { id: ctx.ids.next(), entityId: input.entityId, requestId: input.requestId, createdAt: nowIso(ctx) }, input);
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
