// Reading the maintained totals (ledger_balances, ledger_day_totals: kept by triggers, see
// tables.ts and migration 0018). A report asks for the lines dated in (after, at]: whole days come
// from the day totals, the two partial days at the ends from the lines themselves (through the
// entries' date index), and a balance as of a date is the running total less what came later
// when that is the shorter way. The answers are the exact sums of the lines.
import type { Database, Statement } from 'better-sqlite3';
import type { Queryable } from '../db/tx.js';

export interface Part {
  accountId: string;
  currency: string;
  side: 'debit' | 'credit';
  total: string;
}
interface Sum {
  lines: bigint;
  total: bigint;
}
type Row = { accountId: string; currency: string; side: 'debit' | 'credit'; lines: bigint; lo: bigint; mid: bigint; hi: bigint };
type LineRow = { accountId: string; currency: string; side: 'debit' | 'credit'; lines: bigint; total: bigint | string };

const E18 = 10n ** 18n;
/** Above every effective date that starts with a given day (the largest code point). */
const DAY_END = '\u{10FFFF}';

const GROUP = 'account_id as accountId, currency, side';
// Lines of entries dated in (after, at] or [from, at], driven by the entries' (entity, date)
// index. One lower bound each: given two, SQLite ranged the index on one and read from there.
const partialScope = (lower: '>' | '>=') => `from ledger_entries e cross join ledger_lines l
  where e.entity_id = @entityId and e.effective_at ${lower} @lower and e.effective_at <= @at
    and l.entry_id = e.id and l.entity_id = @entityId`;

function prepare(sqlite: Database) {
  const safe = <T extends unknown[], R>(sql: string) => (sqlite.prepare(sql) as Statement<T, R>).safeIntegers(true);
  return {
    running: safe<[string], Row>(`select ${GROUP}, lines, lo, mid, hi from ledger_balances where entity_id = ?`),
    runningOf: safe<[string, string, string], Row>(`select ${GROUP}, lines, lo, mid, hi from ledger_balances where entity_id = ? and account_id = ? and currency = ?`),
    daysSummed: safe<[string, string, string], Row>(
      `select ${GROUP}, sum(lines) as lines, sum(lo) as lo, sum(mid) as mid, sum(hi) as hi from ledger_day_totals
       where entity_id = ? and day > ? and day < ? group by account_id, currency, side`,
    ),
    days: safe<[string, string, string], Row>(`select ${GROUP}, lines, lo, mid, hi from ledger_day_totals where entity_id = ? and day > ? and day < ?`),
    firstDay: sqlite.prepare<[string], { day: string | null }>('select min(day) as day from ledger_day_totals where entity_id = ?'),
    lastDay: sqlite.prepare<[string], { day: string | null }>('select max(day) as day from ledger_day_totals where entity_id = ?'),
    // Amounts below 10^18 summed by SQLite (its sum() raises on overflow: then they are read one by one); longer ones always here.
    partial: (['>', '>='] as const).map((lower) => ({
      summed: safe<[Record<string, string>], LineRow>(
        `select l.account_id as accountId, l.currency, l.side, count(*) as lines, sum(cast(l.amount as integer)) as total ${partialScope(lower)} and length(l.amount) <= 18 group by l.account_id, l.currency, l.side`,
      ),
      short: safe<[Record<string, string>], LineRow>(`select l.account_id as accountId, l.currency, l.side, 1 as lines, l.amount as total ${partialScope(lower)} and length(l.amount) <= 18`),
      long: safe<[Record<string, string>], LineRow>(`select l.account_id as accountId, l.currency, l.side, 1 as lines, l.amount as total ${partialScope(lower)} and length(l.amount) > 18`),
    })),
  };
}

const cache = new WeakMap<Database, ReturnType<typeof prepare>>();
function statements(db: Queryable) {
  const sqlite = (db as unknown as { session: { client: Database } }).session.client;
  let st = cache.get(sqlite);
  if (!st) cache.set(sqlite, (st = prepare(sqlite)));
  return st;
}

const isOverflow = (err: unknown) => /integer overflow/i.test(String((err as Error).message));

/** Totals per account, currency and side, added up (sign 1) or taken away (−1). */
class Totals {
  readonly sums = new Map<string, Sum & Omit<Part, 'total'>>();
  add(r: { accountId: string; currency: string; side: 'debit' | 'credit' }, lines: bigint, total: bigint, sign: 1n | -1n) {
    const key = `${r.accountId}\u0000${r.currency}\u0000${r.side}`;
    const s = this.sums.get(key) ?? this.sums.set(key, { accountId: r.accountId, currency: r.currency, side: r.side, lines: 0n, total: 0n }).get(key)!;
    s.lines += sign * lines;
    s.total += sign * total;
  }
  addRows(rows: Row[], sign: 1n | -1n) {
    for (const r of rows) this.add(r, r.lines, r.hi * E18 * E18 + r.mid * E18 + r.lo, sign);
  }
  addLines(rows: LineRow[], sign: 1n | -1n) {
    for (const r of rows) this.add(r, r.lines, BigInt(r.total), sign);
  }
  /** The totals that still count lines: an account and currency without lines has no part, as before. */
  parts(): Part[] {
    return [...this.sums.values()].filter((s) => s.lines > 0n).map((s) => ({ accountId: s.accountId, currency: s.currency, side: s.side, total: s.total.toString() }));
  }
}

/** Day totals of the days strictly between two days ('' and DAY_END for open ends). */
function addDays(db: Queryable, t: Totals, entityId: string, afterDay: string, beforeDay: string, sign: 1n | -1n) {
  const st = statements(db);
  try {
    t.addRows(st.daysSummed.all(entityId, afterDay, beforeDay), sign);
  } catch (err) {
    if (!isOverflow(err)) throw err;
    t.addRows(st.days.all(entityId, afterDay, beforeDay), sign);
  }
}

/** The lines themselves, of entries dated > after (or ≥ from) and ≤ at. */
function addLines(db: Queryable, t: Totals, entityId: string, range: { from: string; at: string } | { after: string; at: string }, sign: 1n | -1n) {
  const st = 'from' in range ? statements(db).partial[1] : statements(db).partial[0];
  const params = { entityId, lower: 'from' in range ? range.from : range.after, at: range.at };
  try {
    t.addLines(st.summed.all(params), sign);
  } catch (err) {
    if (!isOverflow(err)) throw err;
    t.addLines(st.short.all(params), sign);
  }
  t.addLines(st.long.all(params), sign);
}

const dayOf = (iso: string) => iso.slice(0, 10);
const daysApart = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

export type Way = 'forward' | 'back';

/** Debit and credit totals per account and currency of every line dated up to `at`. */
function partsAsOf(db: Queryable, entityId: string, at: string, way?: Way): Totals {
  const st = statements(db);
  const t = new Totals();
  const day = dayOf(at);
  const first = st.firstDay.get(entityId)?.day;
  const last = st.lastDay.get(entityId)?.day;
  if (!first || !last) return t;
  // Forward from the first day, or back from the running total: whichever reads fewer days.
  if ((way ?? (daysApart(first, day) < daysApart(day, last) ? 'forward' : 'back')) === 'forward') {
    addDays(db, t, entityId, '', day, 1n);
    addLines(db, t, entityId, { from: day, at }, 1n);
  } else {
    t.addRows(st.running.all(entityId), 1n);
    addDays(db, t, entityId, day, DAY_END, -1n);
    addLines(db, t, entityId, { after: at, at: day + DAY_END }, -1n);
  }
  return t;
}

/**
 * Debit and credit totals per account, currency and side of the lines whose entries are dated in
 * (after, at] (after: from the first entry when absent). Exact, whatever the amounts. `way`
 * forces the direction of an as-of read (tests check both give the same).
 */
export function readParts(db: Queryable, entityId: string, at: string, after?: string, way?: Way): Part[] {
  if (after === undefined) return partsAsOf(db, entityId, at, way).parts();
  const t = new Totals();
  if (after >= at) return t.parts();
  const [from, to] = [dayOf(after), dayOf(at)];
  if (from === to) {
    addLines(db, t, entityId, { after, at }, 1n);
  } else {
    addLines(db, t, entityId, { after, at: from + DAY_END }, 1n);
    addDays(db, t, entityId, from, to, 1n);
    addLines(db, t, entityId, { from: to, at }, 1n);
  }
  return t.parts();
}

/** Debits − credits of one account in one currency over the whole journal (its running totals). */
export function netDebitOf(db: Queryable, entityId: string, accountId: string, currency: string): bigint {
  const t = new Totals();
  t.addRows(statements(db).runningOf.all(entityId, accountId, currency), 1n);
  return t.parts().reduce((n, p) => n + (p.side === 'debit' ? BigInt(p.total) : -BigInt(p.total)), 0n);
}
