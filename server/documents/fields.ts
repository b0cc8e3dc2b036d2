import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import type { Accessor } from '../folders/index.js';
import { appendAudit } from './audit.js';
import { findDocument } from './documents.js';
import { assertStatus, getVisibleRequest, signersOf, type RequestMeta } from './requests.js';
import type { addFieldsBody, removeFieldsBody, updateFieldBody } from './request-schemas.js';
import { signatureFields, signatureRequests } from './tables.js';

const MAX_FIELDS_PER_REQUEST = 500;
type FieldRow = typeof signatureFields.$inferSelect;

import { presentField } from './signing-core/index.js';

export { presentField };

export function fieldsOf(db: Queryable, entityId: string, requestId: string): FieldRow[] {
  return db
    .select()
    .from(signatureFields)
    .where(and(eq(signatureFields.entityId, entityId), eq(signatureFields.requestId, requestId)))
    .orderBy(asc(signatureFields.page), asc(signatureFields.y), asc(signatureFields.x), asc(signatureFields.id))
    .all();
}

export function listFields(ctx: Context, entityId: string, accessor: Accessor, requestId: string) {
  getVisibleRequest(ctx, entityId, accessor, requestId);
  return fieldsOf(ctx.db, entityId, requestId).map(presentField);
}

/** Places fields (draft only); signers must belong to the request and pages must exist. */
export function addFields(ctx: Context, entityId: string, accessor: Accessor, requestId: string, input: z.output<typeof addFieldsBody>, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['draft'], 'change fields');
  const doc = findDocument(ctx.db, entityId, r.documentId);
  const signers = new Map(signersOf(ctx.db, entityId, requestId).map((s) => [s.id, s]));
  input.fields.forEach((f, i) => {
    const s = signers.get(f.signerId);
    if (!s) throw new BadRequestError(`fields.${i}.signerId is not a signer of this request`);
    if (s.role === 'cc' || s.role === 'viewer') throw new BadRequestError(`fields.${i}: a ${s.role} cannot have fields`);
    if (f.page > doc.pageCount) throw new BadRequestError(`fields.${i}.page: the document has ${doc.pageCount} page(s)`);
  });
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    const existing = tx.select({ n: count() }).from(signatureFields).where(and(eq(signatureFields.entityId, entityId), eq(signatureFields.requestId, requestId))).get()!.n;
    if (existing + input.fields.length > MAX_FIELDS_PER_REQUEST) throw new BadRequestError(`A request can have at most ${MAX_FIELDS_PER_REQUEST} fields`);
    const rows: FieldRow[] = input.fields.map((f) => ({
      id: ctx.ids.next(),
      entityId,
      requestId,
      signerId: f.signerId,
      type: f.type,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
      required: f.required,
      label: f.label ?? null,
      value: null,
      filledAt: null,
      createdAt: now,
    }));
    tx.insert(signatureFields).values(rows).run();
    appendAudit(ctx, tx, { entityId, requestId, type: 'fields_added', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { fieldIds: rows.map((x) => x.id), count: rows.length } });
    tx.update(signatureRequests).set({ updatedAt: now }).where(eq(signatureRequests.id, requestId)).run();
  });
  return fieldsOf(ctx.db, entityId, requestId).map(presentField);
}

export function removeFields(ctx: Context, entityId: string, accessor: Accessor, requestId: string, input: z.output<typeof removeFieldsBody>, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['draft'], 'change fields');
  const current = fieldsOf(ctx.db, entityId, requestId);
  let ids: string[];
  if (input.fieldIds) {
    const known = new Set(current.map((f) => f.id));
    const unknown = input.fieldIds.filter((id) => !known.has(id));
    if (unknown.length) throw new BadRequestError('Some fieldIds are not fields of this request', { fieldIds: unknown });
    ids = input.fieldIds;
  } else {
    if (!signersOf(ctx.db, entityId, requestId).some((s) => s.id === input.signerId)) throw new BadRequestError('signerId is not a signer of this request');
    ids = current.filter((f) => f.signerId === input.signerId).map((f) => f.id);
  }
  if (ids.length > 0) {
    write(ctx, (tx) => {
      tx.delete(signatureFields).where(and(eq(signatureFields.entityId, entityId), inArray(signatureFields.id, ids))).run();
      appendAudit(ctx, tx, { entityId, requestId, type: 'fields_removed', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { fieldIds: ids, count: ids.length } });
      tx.update(signatureRequests).set({ updatedAt: nowIso(ctx) }).where(eq(signatureRequests.id, requestId)).run();
    });
  }
  return fieldsOf(ctx.db, entityId, requestId).map(presentField);
}

/** Moves, resizes, relabels or re-assigns one field, or makes it required or optional (draft only). */
export function updateField(ctx: Context, entityId: string, accessor: Accessor, requestId: string, fieldId: string, input: z.output<typeof updateFieldBody>, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  const current = fieldsOf(ctx.db, entityId, requestId).find((f) => f.id === fieldId);
  if (!current) throw new NotFoundError('Field not found');
  assertStatus(r, ['draft'], 'change fields');
  const { entityId: _entity, label, ...rest } = input;
  const set: Partial<FieldRow> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (label !== undefined) set.label = label || null;
  if (Object.keys(set).length === 0) throw new BadRequestError('Nothing to change');
  const next = { ...current, ...set };
  if (next.x + next.width > 1.000001 || next.y + next.height > 1.000001) throw new BadRequestError('The field must lie within the page');
  if (set.page !== undefined) {
    const doc = findDocument(ctx.db, entityId, r.documentId);
    if (set.page > doc.pageCount) throw new BadRequestError(`page: the document has ${doc.pageCount} page(s)`);
  }
  if (set.signerId !== undefined) {
    const s = signersOf(ctx.db, entityId, requestId).find((x) => x.id === set.signerId);
    if (!s) throw new BadRequestError('signerId is not a signer of this request');
    if (s.role === 'cc' || s.role === 'viewer') throw new BadRequestError(`A ${s.role} cannot have fields`);
  }
  const changes = Object.fromEntries(Object.entries(set).filter(([k, v]) => current[k as keyof FieldRow] !== v));
  if (Object.keys(changes).length > 0) {
    write(ctx, (tx) => {
      tx.update(signatureFields).set(changes).where(and(eq(signatureFields.entityId, entityId), eq(signatureFields.id, fieldId))).run();
      appendAudit(ctx, tx, { entityId, requestId, type: 'field_updated', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { fieldId, changes } });
      tx.update(signatureRequests).set({ updatedAt: nowIso(ctx) }).where(eq(signatureRequests.id, requestId)).run();
    });
  }
  return presentField(fieldsOf(ctx.db, entityId, requestId).find((f) => f.id === fieldId)!);
}
