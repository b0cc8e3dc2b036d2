// The signature requests list (GET /api/documents/signature-requests): every visible request, or
// one keyset page of them. Paging is opt-in, as on the documents list: without `limit` and `cursor`
// the body is every matching request, as before; with either it is one page and `x-next-cursor`
// carries the next.
import { and, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { visibleFolderIds, type Accessor } from '../folders/index.js';
import { ACTING_ROLES } from './signing-core/index.js';
import type { listRequestsQuery } from './request-schemas.js';
import { documents, signatureRequests, signers, type SignerRole } from './tables.js';

type ListRequestsQuery = z.output<typeof listRequestsQuery>;

const DEFAULT_PAGE = 50;

/**
 * Requests out for signature where `email` must act now: a signer, approver or viewer (not cc)
 * whose turn has come (`sentAt`) and who has not acted. Looked up from the signers by address
 * (signers' addresses are stored lower-case), so it reads only that person's rows.
 */
function awaiting(entityId: string, email: string): SQL | undefined {
  const mine = and(eq(signers.entityId, entityId), eq(signers.email, email.toLowerCase()), inArray(signers.role, [...ACTING_ROLES] as SignerRole[]), eq(signers.status, 'pending'), isNotNull(signers.sentAt));
  return and(eq(signatureRequests.status, 'sent'), inArray(signatureRequests.id, sql`(select ${signers.requestId} from ${signers} where ${mine})`));
}

/** The list's filters (status, awaiting the caller, the folders the accessor may see) as conditions. */
function requestFilter(ctx: Context, entityId: string, accessor: Accessor, query: ListRequestsQuery, awaitingEmail: string | null): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(signatureRequests.entityId, entityId)];
  if (query.status) where.push(eq(signatureRequests.status, query.status));
  if (awaitingEmail !== null) where.push(awaiting(entityId, awaitingEmail));
  const visible = visibleFolderIds(ctx, entityId, accessor);
  if (visible) where.push(visible.size ? or(isNull(documents.folderId), inArray(documents.folderId, [...visible])) : isNull(documents.folderId));
  return and(...where);
}

/** The rows after the cursor's position, newest first (ties broken by id). */
function afterCursor(cursor: string): SQL {
  const [createdAt, id] = decodeCursor(cursor);
  return sql`(${signatureRequests.createdAt} < ${createdAt} or (${signatureRequests.createdAt} = ${createdAt} and ${signatureRequests.id} < ${id}))`;
}

/**
 * Every matching request, or (`limit` or `cursor` given) one page, the total and the next page's
 * cursor. `awaitingEmail`: only those waiting for that person (the caller's address).
 */
export function listSignatureRequests(ctx: Context, entityId: string, accessor: Accessor, query: ListRequestsQuery, awaitingEmail: string | null = null) {
  const where = requestFilter(ctx, entityId, accessor, query, awaitingEmail);
  const joined = and(eq(documents.id, signatureRequests.documentId), eq(documents.entityId, signatureRequests.entityId));
  const read = (pageWhere: SQL | undefined, limit?: number) => {
    const q = ctx.db
      .select({ r: signatureRequests, documentName: documents.name })
      .from(signatureRequests)
      .innerJoin(documents, joined)
      .where(pageWhere)
      .orderBy(desc(signatureRequests.createdAt), desc(signatureRequests.id));
    return (limit === undefined ? q : q.limit(limit)).all();
  };
  const present = ({ r, documentName }: { r: typeof signatureRequests.$inferSelect; documentName: string }) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    documentId: r.documentId,
    documentName,
    dueDate: r.dueDate,
    completedAt: r.completedAt,
    createdAt: r.createdAt,
  });
  if (query.limit === undefined && query.cursor === undefined) {
    const items = read(where).map(present);
    return { items, total: items.length, nextCursor: null };
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const total = ctx.db.select({ n: sql<number>`count(*)` }).from(signatureRequests).innerJoin(documents, joined).where(where).get()?.n ?? 0;
  const rows = read(query.cursor ? and(where, afterCursor(query.cursor)) : where, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(present), total, nextCursor: rows.length > limit ? encodeCursor([last.r.createdAt, last.r.id]) : null };
}
