// Shared by every module with an FTS5 index (helpdesk, documents, ledger) and the search endpoint.
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { inArray, sql, type Column, type SQL } from 'drizzle-orm';
import { z } from 'zod';

/** Longest search text accepted (`q` on the lists and the search endpoint). */
export const MAX_SEARCH_TEXT = 200;

/** The `q` query parameter of a list route: full-text search, with what it matches said per list. */
export const searchTextParam = (matches: string) =>
  z
    .string()
    .trim()
    .max(MAX_SEARCH_TEXT, `must be at most ${MAX_SEARCH_TEXT} characters`)
    .optional()
    .meta({ description: `Full-text search: ${matches} contains every word (a word matches words it begins, ignoring case and accents). Text with no letter or digit matches nothing.` });

/**
 * The FTS5 query for a search box's text: every word must appear, each as a prefix, quoted so
 * that FTS5 operators typed by a user (AND, NEAR, *, ", column filters) are plain words.
 * Null when the text holds no letter or digit.
 */
export function ftsQueryOf(text: string): string | null {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/** An index row's entity, as the one token its `entity` column holds (migration 0030). */
export function entityToken(entityId: string): string {
  return `e${Buffer.from(entityId, 'utf8').toString('hex')}`;
}

/**
 * The FTS5 query for `words` (from ftsQueryOf) in an index's text `columns`, among one entity's
 * rows: the entity is matched inside the index, so no join tells entities apart. Users' words are
 * never matched against the entity column.
 */
export function entityMatch(entityId: string, columns: string, words: string): string {
  return `entity : "${entityToken(entityId)}" AND ${inColumns(columns, words)}`;
}

/**
 * The FTS5 query for `words` in an index's text `columns`, of every entity: for ranking (bm25
 * counts each phrase's rows over the whole index, and the entity's phrase is in most of them —
 * tens of milliseconds at a few hundred thousand rows), the caller tells entities apart itself.
 */
export function inColumns(columns: string, words: string): string {
  return `{${columns}} : (${words})`;
}

/** Marks FTS5's snippet() puts around matched words: control characters no stored text holds. */
export const MATCH_OPEN = '\u0002';
export const MATCH_CLOSE = '\u0003';

/** A snippet as text segments, `match: true` where a searched word matched (no markup to escape). */
export type SnippetPart = { text: string; match: boolean };

export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const piece of marked.split(MATCH_OPEN)) {
    const close = piece.indexOf(MATCH_CLOSE);
    if (close === -1) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    if (close > 0) parts.push({ text: piece.slice(0, close), match: true });
    const rest = piece.slice(close + 1);
    if (rest) parts.push({ text: rest, match: false });
  }
  // Text between two matched words stays one run; newlines read as spaces in a one-line snippet.
  return parts.map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ') }));
}

/** One result of the top bar's search in an area, as its module finds it. */
export interface SearchHit {
  id: string;
  /** What the result is called (a ticket's subject, a document's name, an event's description). */
  title: string;
  /** A short line that tells results apart (number and status, folder, date and status). */
  detail: string | null;
  /** Where the words matched, the matched words marked. */
  snippet: SnippetPart[];
}

/**
 * How many of the newest matches are ranked (bm25) for the top bar: ranking every match of a
 * common word costs a bm25 score per row (about 25 µs each, tens of thousands of rows); the
 * newest few dozen, read in rowid order with the LIMIT applied inside the FTS scan, cost the same
 * at any size. A rare word has fewer matches than this, so all of them are ranked.
 */
export const RANKED_WINDOW = 50;

const statements = new WeakMap<Database.Database, Map<string, Statement>>();

/** A statement prepared once per database (the search runs several per request). */
export function prepared(sqlite: Database.Database, sql: string): Statement {
  let bySql = statements.get(sqlite);
  if (!bySql) statements.set(sqlite, (bySql = new Map()));
  let st = bySql.get(sql);
  if (!st) bySql.set(sql, (st = sqlite.prepare(sql)));
  return st;
}

/** The `limit` best of a window of matches (lower bm25 rank is better; ties: newer first). */
export function bestRanked<T extends { rank: number; doc: number }>(rows: T[], limit: number): T[] {
  return [...rows].sort((a, b) => a.rank - b.rank || b.doc - a.doc).slice(0, limit);
}

/** snippet() arguments: matched words between MATCH_OPEN/MATCH_CLOSE, about a dozen words around them. */
export const SNIPPET_ARGS = "char(2), char(3), '…', 12";

/**
 * Up to this many matches, a list filters by the matching ids themselves (SQLite looks each up by
 * its key); above it, by the index's subquery, probed while the list is read in its own order
 * (which stops early for a common word). A rare word then never scans the whole list.
 */
export const FEW_MATCHES = 1000;

/** An index's key per creation millisecond (migration 0030): rows of one millisecond take consecutive keys. */
const KEYS_PER_MS = 2048;

/** A full-text index keyed by time (migration 0030), and the map from its keys to the rows it indexes. */
export interface TimeKeyedIndex {
  fts: string;
  docs: string;
  /** The map's column naming the indexed row. */
  idColumn: string;
}

/** How many rows of the entity match: FTS5 alone counts them (the entity is in the match). */
export function countMatches(sqlite: Database.Database, index: TimeKeyedIndex, match: string): number {
  return (prepared(sqlite, `select count(*) as n from ${index.fts} where ${index.fts} match ?`).get(match) as { n: number }).n;
}

/** Candidates read from the index per step at most. */
const MAX_STEP = 4096;

type ListRow = { createdAt: string; id: string };
type Walked<R> = { rows: R[]; everyMatch: number | null };

/** A list's order: created_at desc, then id desc (both ASCII, so JS and SQLite compare alike). */
const newestFirst = (a: ListRow, b: ListRow) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * The first `want` matching rows in a list's order (created_at desc, id desc), read by walking the
 * index newest first and stopping early: with a common word the list's first page costs a few
 * dozen index rows instead of every match. `before` (a cursor's createdAt) starts the walk at its
 * millisecond. `rowsOf(ids)` reads the rows of a step's candidates that pass the list's other
 * conditions (the cursor's exact position, filters), in any order: with an ORDER BY, SQLite may
 * walk the list's own index past every row of the entity instead of looking the ids up. `everyMatch` is the number of matches when
 * the walk read them all from the newest (a rare word): the caller need not count them again.
 * Null when more than `maxWalk` candidates were read (other filters reject most matches): the
 * caller then asks SQLite the whole question instead.
 *
 * Why it is exact: a key at or above zero is its row's creation millisecond × 2,048 plus its place
 * in that millisecond (migration 0030), so every such row not yet walked was made in or before the
 * millisecond of the last key walked; rows keyed below zero are read first. Once the `want`-th
 * row found is newer than the last millisecond walked, nothing unwalked can come before it.
 */
export function newestMatches<R extends ListRow>(sqlite: Database.Database, index: TimeKeyedIndex, match: string, walk: { want: number; before?: string }, rowsOf: (ids: string[]) => R[]): Walked<R>;
export function newestMatches<R extends ListRow>(sqlite: Database.Database, index: TimeKeyedIndex, match: string, walk: { want: number; before?: string; maxWalk: number }, rowsOf: (ids: string[]) => R[]): Walked<R> | null;
export function newestMatches<R extends ListRow>(
  sqlite: Database.Database,
  index: TimeKeyedIndex,
  match: string,
  walk: { want: number; before?: string; maxWalk?: number },
  rowsOf: (ids: string[]) => R[],
): Walked<R> | null {
  const { want, before, maxWalk = Infinity } = walk;
  const step = prepared(
    sqlite,
    `select s.rowid as doc, d.${index.idColumn} as id from ${index.fts} s join ${index.docs} d on d.doc = s.rowid where ${index.fts} match ? and s.rowid >= 0 and s.rowid < ? order by s.rowid desc limit ?`,
  );
  // Rows keyed below zero (no readable time, more than a millisecond's keys) could belong anywhere:
  // read first, on every page. There are none in the ordinary course, and the map's key says so
  // at once: FTS5 would evaluate the whole query to find none.
  const anyOdd = prepared(sqlite, `select 1 from ${index.docs} where doc < 0 limit 1`).get() !== undefined;
  const odd = anyOdd ? (prepared(sqlite, `select d.${index.idColumn} as id from ${index.fts} s join ${index.docs} d on d.doc = s.rowid where ${index.fts} match ? and s.rowid < 0`).all(match) as { id: string }[]) : [];
  let walked = odd.length;
  let rows: R[] = odd.length ? rowsOf(odd.map((o) => o.id)).sort(newestFirst).slice(0, want) : [];
  const startMs = before === undefined ? NaN : Date.parse(before);
  let bound = Number.isFinite(startMs) ? (startMs + 1) * KEYS_PER_MS : Number.MAX_SAFE_INTEGER;
  for (let size = want + 1; ; size = Math.min(size * 4, MAX_STEP)) {
    const got = step.all(match, bound, size) as { doc: number; id: string }[];
    walked += got.length;
    if (got.length > 0) {
      bound = got[got.length - 1].doc;
      rows = [...rows, ...rowsOf(got.map((g) => g.id))].sort(newestFirst).slice(0, want);
    }
    // Walked to the end from the newest: every match was read, so their number is the count.
    if (got.length < size) return { rows, everyMatch: before === undefined ? walked : null };
    const lastMs = Math.floor(bound / KEYS_PER_MS);
    if (rows.length >= want && Date.parse(rows[want - 1].createdAt) > lastMs) return { rows, everyMatch: null };
    if (walked > maxWalk) return null;
  }
}

/**
 * A list's condition on `id` for rows whose indexed text matches `match` (null: none). A few
 * matches (up to FEW_MATCHES) as their ids, looked up by key; many as the index's subquery, not
 * correlated with the outer row (the entity is in the match), so SQLite matches once, not once per row.
 */
export function matchingIds(sqlite: Database.Database, index: TimeKeyedIndex, id: Column, match: string | null): SQL {
  if (match === null) return sql`0`;
  const from = `from ${index.fts} f join ${index.docs} d on d.doc = f.rowid where ${index.fts} match`;
  const ids = (prepared(sqlite, `select d.${index.idColumn} as id ${from} ? limit ?`).all(match, FEW_MATCHES + 1) as { id: string }[]).map((r) => r.id);
  if (ids.length <= FEW_MATCHES) return ids.length ? inArray(id, ids) : sql`0`;
  return sql`${id} in (${sql.raw(`select d.${index.idColumn} ${from}`)} ${match})`;
}
