// The documents list (GET /api/documents): every visible document, or one keyset page of them.
// Paging is opt-in, as on the ticket list: without `limit` and `cursor` the body is every matching
// document, as before; with either it is one page and `x-next-cursor` carries the next.
import { and, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { countMatches, entityMatch, ftsQueryOf, matchingIds, newestMatches } from '../db/fts.js';
import { readInWorker, readPool } from '../db/read-pool.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { BadRequestError } from '../http/errors.js';
import { JsonText } from '../http/write-json.js';
import { assertFolderAccess, visibleFolderIds, type Accessor } from '../folders/index.js';
import { presentDocument, type DocumentRow } from './documents.js';
import { folderOrder } from './placement.js';
import type { listDocumentsQuery } from './schemas.js';
import { documents } from './tables.js';

type ListDocumentsQuery = z.output<typeof listDocumentsQuery>;

const DEFAULT_PAGE = 50;

/** Documents whose name or text holds every word of `text` (no word at all: none). */
function matchesSearch(ctx: Context, entityId: string, text: string): SQL {
  return matchingIds(ctx.sqlite, SEARCH_INDEX, documents.id, searchMatch(entityId, text));
}

/** The FTS5 query for a list's `q` among the entity's documents (their name and text); null when it has no word. */
function searchMatch(entityId: string, text: string): string | null {
  const words = ftsQueryOf(text);
  return words === null ? null : entityMatch(entityId, 'name body', words);
}

const SEARCH_INDEX = { fts: 'documents_search', docs: 'documents_search_docs', idColumn: 'document_id' };

/**
 * A page of a search with nothing else to filter (no folder, no name search, every folder
 * visible): read walking the index newest first and counted by FTS5 alone, so a common word's
 * first page does not read every match. Null when the list has other filters.
 */
function newestSearchPage(ctx: Context, entityId: string, accessor: Accessor, query: ListDocumentsQuery, limit: number) {
  if (query.q === undefined || query.folderId !== undefined || query.search || visibleFolderIds(ctx, entityId, accessor) !== null) return null;
  const match = searchMatch(entityId, query.q);
  if (match === null) return { items: [], total: 0, nextCursor: null };
  const cursorWhere = query.cursor ? afterCursor(query.cursor, false) : undefined;
  const { rows, everyMatch } = newestMatches(ctx.sqlite, SEARCH_INDEX, match, { want: limit + 1, before: query.cursor ? decodeCursor(query.cursor)[0] : undefined }, (ids) =>
    ctx.db
      .select()
      .from(documents)
      .where(and(sql`+${documents.entityId} = ${entityId} and ${documents.id} in (select value from json_each(${JSON.stringify(ids)}))`, cursorWhere))
      .all(),
  );
  return { ...pageOf(rows, limit, false), total: everyMatch ?? countMatches(ctx.sqlite, SEARCH_INDEX, match) };
}

/** The first `limit` of `limit + 1` rows read, and the next page's cursor when there was one more. */
function pageOf(rows: DocumentRow[], limit: number, inFolder: boolean) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(presentDocument), nextCursor: rows.length > limit ? encodeCursor([keyOf(last, inFolder), last.id]) : null };
}

/** The list's filters (folder, name, text, the folders the accessor may see) as conditions. */
function documentFilter(ctx: Context, entityId: string, accessor: Accessor, query: ListDocumentsQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(documents.entityId, entityId)];
  if (query.folderId === 'root') where.push(isNull(documents.folderId));
  else if (query.folderId) {
    assertFolderAccess(ctx, entityId, accessor, query.folderId, 'view');
    where.push(eq(documents.folderId, query.folderId));
  }
  if (query.search) where.push(sql`instr(lower(${documents.name}), lower(${query.search})) > 0`);
  if (query.q !== undefined) where.push(matchesSearch(ctx, entityId, query.q));
  const visible = visibleFolderIds(ctx, entityId, accessor);
  if (visible) where.push(visible.size ? or(isNull(documents.folderId), inArray(documents.folderId, [...visible])) : isNull(documents.folderId));
  return and(...where);
}

/**
 * A folder lists in its manual order (position, unplaced last, then newest first), anything else
 * newest first. The cursor's key is `createdAt`, or `position|createdAt` in a folder (position
 * empty when unplaced): a cursor from the other order is not valid here.
 */
function keyOf(d: DocumentRow, inFolder: boolean): string {
  return inFolder ? `${d.position ?? ''}|${d.createdAt}` : d.createdAt;
}

/** The rows after the cursor's position, in the list's order. */
function afterCursor(cursor: string, inFolder: boolean): SQL {
  const [key, id] = decodeCursor(cursor);
  const bar = key.indexOf('|');
  if (inFolder !== bar >= 0) throw new BadRequestError('cursor is not valid');
  const createdAt = inFolder ? key.slice(bar + 1) : key;
  const newer = sql`(${documents.createdAt} < ${createdAt} or (${documents.createdAt} = ${createdAt} and ${documents.id} < ${id}))`;
  if (!inFolder) return newer;
  const position = key.slice(0, bar);
  if (position === '') return sql`(${documents.position} is null and ${newer})`;
  if (!/^-?\d{1,15}$/.test(position)) throw new BadRequestError('cursor is not valid');
  const p = Number(position);
  return sql`(${documents.position} is null or ${documents.position} > ${p} or (${documents.position} = ${p} and ${newer}))`;
}

/** A folder in its manual order, anything else newest first. */
const orderOf = (query: ListDocumentsQuery) => (query.folderId !== undefined ? folderOrder : [desc(documents.createdAt), desc(documents.id)]);

/** Every matching document, or (`limit` or `cursor` given) one page, the total and the next page's cursor. */
export function listDocuments(ctx: Context, entityId: string, accessor: Accessor, query: ListDocumentsQuery) {
  const paged = query.limit !== undefined || query.cursor !== undefined;
  const searched = paged ? newestSearchPage(ctx, entityId, accessor, query, query.limit ?? DEFAULT_PAGE) : null;
  if (searched) return searched;
  const where = documentFilter(ctx, entityId, accessor, query);
  const inFolder = query.folderId !== undefined;
  const order = orderOf(query);
  if (!paged) {
    const items = ctx.db.select().from(documents).where(where).orderBy(...order).all().map(presentDocument);
    return { items, total: items.length, nextCursor: null };
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const total = ctx.db.select({ n: sql<number>`count(*)` }).from(documents).where(where).get()?.n ?? 0;
  const pageWhere = query.cursor ? and(where, afterCursor(query.cursor, inFolder)) : where;
  const rows = ctx.db.select().from(documents).where(pageWhere).orderBy(...order).limit(limit + 1).all();
  return { ...pageOf(rows, limit, inFolder), total };
}

type DocumentItem = ReturnType<typeof presentDocument>;

/** The table's columns in the order an explicit select of them reads them (the worker answers rows as arrays). */
const COLUMNS = getTableColumns(documents);
const COLUMN_LIST = Object.entries(COLUMNS);

/** A row as the worker read it, decoded by each column as drizzle decodes it (`pages` is JSON). */
function documentRowOf(values: unknown[]): DocumentRow {
  const row: Record<string, unknown> = {};
  COLUMN_LIST.forEach(([key, column], i) => {
    row[key] = values[i] === null ? null : column.mapFromDriverValue(values[i]);
  });
  return row as DocumentRow;
}

/**
 * The spec's unpaged list: every matching document, as the JSON array `listDocuments` answers,
 * read by a worker thread (its own read-only connection) and serialised a chunk at a time, as
 * the unpaged ticket list is, so twenty thousand documents never hold up the other requests.
 * The SQL is the filter `listDocuments` uses, compiled (the same rules on both paths). An entity
 * with at most the pool's `inlineRows` documents is answered directly: no filter makes its list
 * longer, and finding out is one bounded walk of the entity's index. `onTotal` gets the count.
 */
export async function listAllDocumentsJson(ctx: Context, entityId: string, accessor: Accessor, query: ListDocumentsQuery, onTotal: (total: number) => void): Promise<JsonText<DocumentItem[]>> {
  const inlineRows = readPool(ctx)?.inlineRows ?? 0;
  if (inlineRows > 0 && !ctx.db.select({ one: sql`1` }).from(documents).where(eq(documents.entityId, entityId)).limit(1).offset(inlineRows).get()) {
    const { items, total } = listDocuments(ctx, entityId, accessor, { ...query, limit: undefined, cursor: undefined });
    onTotal(total);
    return new JsonText<DocumentItem[]>(JSON.stringify(items));
  }
  const where = documentFilter(ctx, entityId, accessor, query);
  const { sql: text, params } = ctx.db.select(COLUMNS).from(documents).where(where).orderBy(...orderOf(query)).toSQL();
  const parts: string[] = [];
  let total = 0;
  await readInWorker(ctx, { sql: text, params, raw: true }, (rows) => {
    if (rows.length === 0) return;
    total += rows.length;
    // An array's JSON without its brackets: the chunks joined by commas are the whole array's.
    parts.push(JSON.stringify((rows as unknown[][]).map((r) => presentDocument(documentRowOf(r)))).slice(1, -1));
  });
  onTotal(total);
  return new JsonText<DocumentItem[]>(`[${parts.join(',')}]`);
}
