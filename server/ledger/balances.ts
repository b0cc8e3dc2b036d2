// Reading the maintained totals (ledger_balances, ledger_day_totals: kept by triggers, see
// tables.ts and migration 0018). A report asks for the lines dated in (after, at]: whole days come
// from the day totals, the two partial days at the ends from the lines themselves (through the
// entries' date index), and a balance as of a date is the running total less what came later
// when that is the shorter way. The answers are the exact sums of the lines.
import type { Database, Statement } from 'better-sqlite3';
import type { Queryable } from '../db/tx.js';
import type { Context } from '../context.js';
import { readBatchInWorker, type ReadBatch } from '../db/read-pool.js';

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

/** The SQL of the reads, shared by the statements prepared here and the batches a read worker runs. */
const SQL = {
  running: `select ${GROUP}, lines, lo, mid, hi from ledger_balances where entity_id = ?`,
  daysSummed: `select ${GROUP}, sum(lines) as lines, sum(lo) as lo, sum(mid) as mid, sum(hi) as hi from ledger_day_totals
       where entity_id = ? and day > ? and day < ? group by account_id, currency, side`,
  days: `select ${GROUP}, lines, lo, mid, hi from ledger_day_totals where entity_id = ? and day > ? and day < ?`,
  // Amounts below 10^18 summed by SQLite (its sum() raises on overflow: then they are read one by one); longer ones always here.
  partial: (['>', '>='] as const).map((lower) => ({
    summed: `select l.account_id as accountId, l.currency, l.side, count(*) as lines, sum(cast(l.amount as integer)) as total ${partialScope(lower)} and length(l.amount) <= 18 group by l.account_id, l.currency, l.side`,
    short: `select l.account_id as accountId, l.currency, l.side, 1 as lines, l.amount as total ${partialScope(lower)} and length(l.amount) <= 18`,
    long: `select l.account_id as accountId, l.currency, l.side, 1 as lines, l.amount as total ${partialScope(lower)} and length(l.amount) > 18`,
  })),
};

function prepare(sqlite: Database) {
  const safe = <T extends unknown[], R>(sql: string) => (sqlite.prepare(sql) as Statement<T, R>).safeIntegers(true);
  return {
    running: safe<[string], Row>(SQL.running),
    runningOf: safe<[string, string, string], Row>(`select ${GROUP}, lines, lo, mid, hi from ledger_balances where entity_id = ? and account_id = ? and currency = ?`),
    daysSummed: safe<[string, string, string], Row>(SQL.daysSummed),
    days: safe<[string, string, string], Row>(SQL.days),
    firstDay: sqlite.prepare<[string], { day: string | null }>('select min(day) as day from ledger_day_totals where entity_id = ?'),
    lastDay: sqlite.prepare<[string], { day: string | null }>('select max(day) as day from ledger_day_totals where entity_id = ?'),
    partial: SQL.partial.map((p) => ({
      summed: safe<[Record<string, string>], LineRow>(p.summed),
      short: safe<[Record<string, string>], LineRow>(p.short),
      long: safe<[Record<string, string>], LineRow>(p.long),
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

/**
 * What a read adds up: the running totals, day totals of the days strictly between two days (''
 * and DAY_END for open ends), or the lines of entries dated > after (or ≥ from) and ≤ at; each
 * added (sign 1) or taken away (−1).
 */
type Step =
  | { kind: 'running'; sign: 1n }
  | { kind: 'days'; afterDay: string; beforeDay: string; sign: 1n | -1n }
  | { kind: 'lines'; range: { from: string; at: string } | { after: string; at: string }; sign: 1n | -1n };

const dayOf = (iso: string) => iso.slice(0, 10);
const daysApart = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

export type Way = 'forward' | 'back';

/** The steps of an as-of read: forward from the first day, or back from the running total, whichever reads fewer days. */
function planAsOf(db: Queryable, entityId: string, at: string, way?: Way): Step[] {
  const st = statements(db);
  const day = dayOf(at);
  const first = st.firstDay.get(entityId)?.day;
  const last = st.lastDay.get(entityId)?.day;
  if (!first || !last) return [];
  if ((way ?? (daysApart(first, day) < daysApart(day, last) ? 'forward' : 'back')) === 'forward') {
    return [
      { kind: 'days', afterDay: '', beforeDay: day, sign: 1n },
      { kind: 'lines', range: { from: day, at }, sign: 1n },
    ];
  }
  return [
    { kind: 'running', sign: 1n },
    { kind: 'days', afterDay: day, beforeDay: DAY_END, sign: -1n },
    { kind: 'lines', range: { after: at, at: day + DAY_END }, sign: -1n },
  ];
}

/** The steps of a read of the lines dated in (after, at] (after: from the first entry when absent). */
function plan(db: Queryable, entityId: string, at: string, after?: string, way?: Way): Step[] {
  if (after === undefined) return planAsOf(db, entityId, at, way);
  if (after >= at) return [];
  const [from, to] = [dayOf(after), dayOf(at)];
  if (from === to) return [{ kind: 'lines', range: { after, at }, sign: 1n }];
  return [
    { kind: 'lines', range: { after, at: from + DAY_END }, sign: 1n },
    { kind: 'days', afterDay: from, beforeDay: to, sign: 1n },
    { kind: 'lines', range: { from: to, at }, sign: 1n },
  ];
}

const linesParams = (entityId: string, range: { from: string; at: string } | { after: string; at: string }) => ({ entityId, lower: 'from' in range ? range.from : range.after, at: range.at });
const linesSql = (range: { from: string; at: string } | { after: string; at: string }) => ('from' in range ? SQL.partial[1] : SQL.partial[0]);

/** Runs the steps on the connection itself. */
function runHere(db: Queryable, entityId: string, steps: Step[]): Totals {
  const st = statements(db);
  const t = new Totals();
  const overflowing = <R>(read: () => R, instead: () => R): R => {
    try {
      return read();
    } catch (err) {
      if (!isOverflow(err)) throw err;
      return instead();
    }
  };
  for (const step of steps) {
    if (step.kind === 'running') t.addRows(st.running.all(entityId), step.sign);
    else if (step.kind === 'days') {
      const args = [entityId, step.afterDay, step.beforeDay] as const;
      t.addRows(overflowing(() => st.daysSummed.all(...args), () => st.days.all(...args)), step.sign);
    } else {
      const p = 'from' in step.range ? st.partial[1] : st.partial[0];
      const params = linesParams(entityId, step.range);
      t.addLines(overflowing(() => p.summed.all(params), () => p.short.all(params)), step.sign);
      t.addLines(p.long.all(params), step.sign);
    }
  }
  return t;
}

/** The steps as one batch of statements for a read worker, and how each result is added up. */
function asBatch(entityId: string, steps: Step[]): { batch: ReadBatch; add: ((t: Totals, rows: unknown[]) => void)[] } {
  const batch: ReadBatch = { steps: [], safeIntegers: true };
  const add: ((t: Totals, rows: unknown[]) => void)[] = [];
  for (const step of steps) {
    if (step.kind === 'running') {
      batch.steps.push({ sql: SQL.running, params: [entityId] });
      add.push((t, rows) => t.addRows(rows as Row[], step.sign));
    } else if (step.kind === 'days') {
      batch.steps.push({ sql: SQL.daysSummed, params: [entityId, step.afterDay, step.beforeDay], onOverflow: SQL.days });
      add.push((t, rows) => t.addRows(rows as Row[], step.sign));
    } else {
      const p = linesSql(step.range);
      const params = [linesParams(entityId, step.range)];
      batch.steps.push({ sql: p.summed, params, onOverflow: p.short }, { sql: p.long, params });
      add.push((t, rows) => t.addLines(rows as LineRow[], step.sign), (t, rows) => t.addLines(rows as LineRow[], step.sign));
    }
  }
  return { batch, add };
}

/**
 * Debit and credit totals per account, currency and side of the lines whose entries are dated in
 * (after, at] (after: from the first entry when absent). Exact, whatever the amounts. `way`
 * forces the direction of an as-of read (tests check both give the same).
 */
export function readParts(db: Queryable, entityId: string, at: string, after?: string, way?: Way): Part[] {
  return runHere(db, entityId, plan(db, entityId, at, after, way)).parts();
}

/**
 * The same totals read by a read worker (its own connection, one snapshot), so a report over a
 * long history never holds up other requests. The direction is chosen here from the first and
 * last days (two index lookups); either direction is exact on the worker's snapshot.
 */
export async function readPartsInWorker(ctx: Context, entityId: string, at: string, after?: string): Promise<Part[]> {
  const steps = plan(ctx.db, entityId, at, after);
  const { batch, add } = asBatch(entityId, steps);
  const results = steps.length ? await readBatchInWorker(ctx, batch) : [];
  const t = new Totals();
  results.forEach((rows, i) => add[i](t, rows));
  return t.parts();
}

/** Debits − credits of one account in one currency over the whole journal (its running totals). */
export function netDebitOf(db: Queryable, entityId: string, accountId: string, currency: string): bigint {
  const t = new Totals();
  t.addRows(statements(db).runningOf.all(entityId, accountId, currency), 1n);
  return t.parts().reduce((n, p) => n + (p.side === 'debit' ? BigInt(p.total) : -BigInt(p.total)), 0n);
}
