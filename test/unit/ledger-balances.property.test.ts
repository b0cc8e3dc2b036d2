// Property test of the maintained totals (ledger_balances, ledger_day_totals): after random
// postings, reversals, reclassifications, journal rows arriving as sync applies them (capture
// off, entry or lines first) and refused groups undone, they equal the sums of the lines; the
// reports' reads over any window equal the lines in it; a rebuild gives the same figures.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createEntity } from '../../server/auth/entities.js';
import { postEvent } from '../../server/ledger/post-event.js';
import { reverseEvent } from '../../server/ledger/reverse-event.js';
import { batchReclassify } from '../../server/ledger/reclassify.js';
import { getTrialBalance } from '../../server/ledger/trial-balance.js';
import { readParts } from '../../server/ledger/balances.js';
import { rebuildBalances } from '../../server/ledger/rebuild-balances.js';
import { countEntries } from '../../server/ledger/entry-counts.js';
import { engineOf } from '../../server/sync/engine.js';
import { ConflictError } from '../../server/http/errors.js';
import { formatMinor, mustCurrency } from '../../server/ledger/money.js';
import type { Db } from '../../server/db/open.js';

const TYPES = ['invoice_created', 'bill_received', 'expense_recorded', 'payment_received'] as const;
const LABELS = { invoice_created: { invoiceNumber: 'I' }, bill_received: { billNumber: 'B' }, expense_recorded: { description: 'E' }, payment_received: {} };
/** Business dates on a few days, at a few hours (reversals and reclassifications are dated now). */
const DAYS = ['2025-01-01', '2025-01-02', '2025-01-05', '2025-02-01'];
const HOURS = ['00:00:00.000', '09:30:00.000', '23:59:59.999'];
const instant = fc.tuple(fc.constantFrom(...DAYS), fc.constantFrom(...HOURS)).map(([d, h]) => `${d}T${h}Z`);
/** Amounts up to the ledger's maximum: the totals' limbs and carries are exercised. */
const MAX = 2n ** 128n - 1n;
const amount = fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 10n ** 17n, max: 10n ** 19n }), fc.bigInt({ min: 1n, max: MAX / 4n }));

interface Model {
  events: string[];
  /** Journal rows another device wrote, as this one applied them; `undone` once removed again. */
  arrivals: { eventId: string; entryId: string; lineIds: string[]; undone: boolean }[];
}
interface Real {
  server: TestServer;
  entityId: string;
  accounts: string[];
}
type Cmd = fc.Command<Model, Real>;

const db = (r: Real) => r.server.ctx.db as unknown as Db;
const sqlite = (r: Real) => r.server.ctx.sqlite;

class Post implements Cmd {
  constructor(readonly input: { type: (typeof TYPES)[number]; currency: string; net: bigint; tax: bigint; at: string }) {}
  check = () => true;
  run(m: Model, r: Real) {
    const cur = mustCurrency(this.input.currency);
    const payload = { currency: this.input.currency, netAmount: formatMinor(this.input.net, cur), taxAmount: formatMinor(this.input.tax, cur), ...LABELS[this.input.type] };
    m.events.push(postEvent(r.server.ctx, r.entityId, { type: this.input.type, payload, timestamp: this.input.at }).event.id);
  }
  toString = () => `post(${JSON.stringify(this.input, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))})`;
}

class Reverse implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.events.length > 0;
  run(m: Model, r: Real) {
    try {
      reverseEvent(r.server.ctx, r.entityId, m.events[this.pick % m.events.length]);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  toString = () => `reverse(${this.pick})`;
}

class Reclassify implements Cmd {
  constructor(
    readonly picks: number[],
    readonly type: string,
  ) {}
  check = (m: Readonly<Model>) => m.events.length > 0;
  run(m: Model, r: Real) {
    const ids = [...new Set(this.picks.map((p) => m.events[p % m.events.length]))];
    for (const res of batchReclassify(r.server.ctx, r.entityId, ids, this.type, null, true).results) if (res.newEventId) m.events.push(res.newEventId);
  }
  toString = () => `reclassify(${this.picks.join(',')} → ${this.type})`;
}

/** Journal rows of another device applied here, capture off; a snapshot may bring the lines before their entry. */
class Arrive implements Cmd {
  constructor(readonly input: { at: string; currency: string; amounts: bigint[]; picks: number[]; linesFirst: boolean }) {}
  check = () => true;
  run(m: Model, r: Real) {
    const { ctx } = r.server;
    const id = () => ctx.ids.next();
    const [eventId, entryId] = [id(), id()];
    const total = this.input.amounts.reduce((a, b) => a + b, 0n);
    const lines = [...this.input.amounts.map((a, i) => ({ side: 'debit', amount: a, account: this.input.picks[i] })), { side: 'credit', amount: total, account: this.input.picks.at(-1)! }]
      .map((l) => ({ ...l, id: id(), accountId: r.accounts[l.account % r.accounts.length] }));
    const now = new Date().toISOString();
    const insertEntry = () => {
      sqlite(r).prepare('insert into ledger_entries (id, entity_id, event_id, kind, description, effective_at, created_at) values (?, ?, ?, ?, ?, ?, ?)').run(entryId, r.entityId, eventId, 'posting', 'from another device', this.input.at, now);
    };
    const insertLines = () =>
      lines.forEach((l, position) =>
        sqlite(r).prepare('insert into ledger_lines (id, entity_id, entry_id, position, account_id, currency, side, amount) values (?, ?, ?, ?, ?, ?, ?, ?)').run(l.id, r.entityId, entryId, position, l.accountId, this.input.currency, l.side, l.amount.toString()),
      );
    ctx.db.transaction(() =>
      engineOf(ctx).capture.withoutCapture(() => {
        sqlite(r).pragma('defer_foreign_keys = ON');
        sqlite(r)
          .prepare(`insert into ledger_events (id, entity_id, type, timestamp, payload, source, input_hash, schema_version, metadata, posting_status, created_at, updated_at) values (?, ?, 'invoice_created', ?, '{}', 'api', 'x', '1', '{}', 'posted', ?, ?)`)
          .run(eventId, r.entityId, this.input.at, now, now);
        if (this.input.linesFirst) insertLines();
        insertEntry();
        if (!this.input.linesFirst) insertLines();
      }),
    );
    m.arrivals.push({ eventId, entryId, lineIds: lines.map((l) => l.id), undone: false });
  }
  toString = () => `arrive(${JSON.stringify(this.input, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))})`;
}

/** A refused group undone: its rows deleted line by line (newest first), or the event alone with the cascades taking the rest. */
class Undo implements Cmd {
  constructor(
    readonly pick: number,
    readonly byCascade: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.arrivals.some((a) => !a.undone);
  run(m: Model, r: Real) {
    const open = m.arrivals.filter((a) => !a.undone);
    const a = open[this.pick % open.length];
    const { ctx } = r.server;
    ctx.db.transaction(() =>
      engineOf(ctx).capture.undoingRefused(() => {
        sqlite(r).pragma('defer_foreign_keys = ON');
        const del = (table: string, id: string) => sqlite(r).prepare(`delete from ${table} where id = ?`).run(id);
        if (!this.byCascade) {
          for (const id of [...a.lineIds].reverse()) del('ledger_lines', id);
          del('ledger_entries', a.entryId);
        }
        del('ledger_events', a.eventId);
      }),
    );
    a.undone = true;
  }
  toString = () => `undo(${this.pick}, ${this.byCascade ? 'cascade' : 'rows'})`;
}

/** The reports' read of a window equals the lines in it. */
class Window implements Cmd {
  constructor(
    readonly after: string | undefined,
    readonly at: string,
  ) {}
  check = () => true;
  run(_m: Model, r: Real) {
    const expected = sumLines(r, (at) => (this.after === undefined || at > this.after) && at <= this.at, () => '');
    // The journal's total by date: entries dated in [after, at].
    const entries = sqlite(r).prepare('select effective_at as at from ledger_entries where entity_id = ?').all(r.entityId) as { at: string }[];
    const inWindow = entries.filter((e) => (this.after === undefined || e.at >= this.after) && e.at <= this.at).length;
    expect(countEntries(db(r), r.entityId, this.after, this.at)).toBe(inWindow);
    expect(countEntries(db(r), r.entityId, this.after)).toBe(entries.filter((e) => this.after === undefined || e.at >= this.after).length);
    for (const way of [undefined, 'forward', 'back'] as const) {
      const actual = new Map(readParts(db(r), r.entityId, this.at, this.after, way).map((p) => [`${p.accountId}|${p.currency}|${p.side}|`, p.total]));
      expect([way, actual]).toEqual([way, new Map([...expected].map(([k, v]) => [k, v.total.toString()]))]);
    }
  }
  toString = () => `window(${this.after ?? '…'}, ${this.at})`;
}

class Rebuild implements Cmd {
  check = () => true;
  run(_m: Model, r: Real) {
    const before = maintained(r);
    rebuildBalances(sqlite(r), r.entityId);
    expect(maintained(r)).toEqual(before);
  }
  toString = () => 'rebuild()';
}

/** Line count and total per account, currency, side (and day, by `dayOf`) of the lines whose entry is there. */
function sumLines(r: Real, keep: (at: string) => boolean, dayOf: (at: string) => string) {
  const rows = sqlite(r)
    .prepare('select l.account_id as a, l.currency as c, l.side as s, l.amount as amount, e.effective_at as at from ledger_lines l join ledger_entries e on e.id = l.entry_id where l.entity_id = ?')
    .all(r.entityId) as { a: string; c: string; s: string; amount: string; at: string }[];
  const out = new Map<string, { lines: bigint; total: bigint }>();
  for (const l of rows) {
    if (!keep(l.at)) continue;
    const key = `${l.a}|${l.c}|${l.s}|${dayOf(l.at)}`;
    const sum = out.get(key) ?? out.set(key, { lines: 0n, total: 0n }).get(key)!;
    sum.lines += 1n;
    sum.total += BigInt(l.amount);
  }
  return out;
}

/** The maintained totals as exact numbers (limbs joined), without the rows that count nothing. */
function maintained(r: Real) {
  const read = (sql: string) => {
    const out = new Map<string, { lines: bigint; total: bigint }>();
    for (const t of sqlite(r).prepare(sql).safeIntegers(true).all(r.entityId) as { key: string; lines: bigint; lo: bigint; mid: bigint; hi: bigint }[]) {
      const total = t.hi * 10n ** 36n + t.mid * 10n ** 18n + t.lo;
      if (t.lines !== 0n || total !== 0n) out.set(t.key, { lines: t.lines, total });
    }
    return out;
  };
  const entries = new Map(
    (sqlite(r).prepare('select day, entries from ledger_day_entries where entity_id = ? and entries <> 0').all(r.entityId) as { day: string; entries: number }[]).map((d) => [d.day, d.entries]),
  );
  return {
    entries,
    balances: read(`select account_id || '|' || currency || '|' || side || '|' as key, lines, lo, mid, hi from ledger_balances where entity_id = ?`),
    days: read(`select account_id || '|' || currency || '|' || side || '|' || day as key, lines, lo, mid, hi from ledger_day_totals where entity_id = ?`),
  };
}

function checkTotals(r: Real) {
  const now = maintained(r);
  expect(now.balances).toEqual(sumLines(r, () => true, () => ''));
  expect(now.days).toEqual(sumLines(r, () => true, (at) => at.slice(0, 10)));
  const perDay = new Map<string, number>();
  for (const { at } of sqlite(r).prepare('select effective_at as at from ledger_entries where entity_id = ?').all(r.entityId) as { at: string }[]) perDay.set(at.slice(0, 10), (perDay.get(at.slice(0, 10)) ?? 0) + 1);
  expect(now.entries).toEqual(perDay);
  // The reports' own check: each currency nets to zero.
  getTrialBalance(r.server.ctx, r.entityId, '2100-01-01T00:00:00.000Z');
}

let server: TestServer;
let userId: string;
beforeAll(async () => {
  server = await startTestServer();
  userId = (await server.signup()).user.id;
});
afterAll(() => server?.close());

describe('maintained ledger totals', () => {
  it('equal the sums of the lines under random postings, reversals, reclassifications, sync arrivals and undos', () => {
    const at = fc.oneof(instant, fc.constantFrom('2024-12-31T23:59:59.999Z', '2025-01-03T12:00:00.000Z', '2100-01-01T00:00:00.000Z'));
    const post = fc
      .record({ type: fc.constantFrom(...TYPES), currency: fc.constantFrom('USD', 'JPY', 'ETH/18'), net: amount, tax: fc.oneof(fc.constant(0n), amount), at: instant })
      .map((i) => new Post(i));
    const window = fc.oneof(
      at.map((b) => new Window(undefined, b)),
      fc.tuple(at, at).map(([a, b]) => (a <= b ? new Window(a, b) : new Window(b, a))),
    );
    // Postings and windows twice as often as the rest: windows then have lines to read.
    const commands = [
      post,
      post,
      window,
      window,
      fc.nat().map((p) => new Reverse(p)),
      fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.constantFrom(...TYPES)).map(([p, t]) => new Reclassify(p, t)),
      fc
        .record({ at: instant, currency: fc.constantFrom('USD', 'ETH/18'), amounts: fc.array(amount, { minLength: 1, maxLength: 3 }), picks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), linesFirst: fc.boolean() })
        .map((i) => new Arrive(i)),
      fc.tuple(fc.nat(), fc.boolean()).map(([p, c]) => new Undo(p, c)),
      fc.constant(new Rebuild()),
    ];
    let n = 0;
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 30, size: 'max' }), (cmds) => {
        const entity = createEntity(server.ctx, userId, `totals ${++n}`);
        getTrialBalance(server.ctx, entity.id); // seeds the chart
        const accounts = (server.ctx.sqlite.prepare('select id from ledger_accounts where entity_id = ? order by code').all(entity.id) as { id: string }[]).map((a) => a.id);
        const real: Real = { server, entityId: entity.id, accounts };
        const checked = [...cmds].map((c) => ({
          check: (m: Readonly<Model>) => c.check(m),
          run: (m: Model, r: Real) => {
            c.run(m, r);
            checkTotals(r);
          },
          toString: () => c.toString(),
        }));
        fc.modelRun(() => ({ model: { events: [], arrivals: [] }, real }), checked);
      }),
      { numRuns: 40 },
    );
  }, 600_000);
});
