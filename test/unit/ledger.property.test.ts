// Property tests: random sequences of post / approve / reject / reclassify / replay against a
// simple in-memory model; after every step the ledger's invariants are checked.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createEntity } from '../../server/auth/entities.js';
import { postEvent } from '../../server/ledger/post-event.js';
import { approveEvent, rejectEvent } from '../../server/ledger/approvals.js';
import { batchReclassify } from '../../server/ledger/reclassify.js';
import { getTrialBalance } from '../../server/ledger/trial-balance.js';
import { updateLedgerSettings } from '../../server/ledger/settings.js';
import { ConflictError } from '../../server/http/errors.js';
import { formatMinor, mustCurrency } from '../../server/ledger/money.js';
import type { Context } from '../../server/context.js';

type Status = 'posted' | 'pending_approval' | 'reversed' | 'failed' | 'unposted';
interface ModelEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  status: Status;
  reclassifiedToType?: string;
  newEventId?: string;
}
interface Model {
  events: ModelEvent[];
  keys: Map<string, { input: string; eventId: string }>;
  lastPost?: { input: PostInput; eventId: string };
  lastBatch?: { eventIds: string[]; newEventType: string; newIds: (string | undefined)[] };
}
interface Real {
  ctx: Context;
  entityId: string;
  userId: string;
}

const TYPES = ['invoice_created', 'payment_received', 'bill_received', 'expense_recorded'] as const;
const REQUIRED: Record<string, string | null> = { invoice_created: 'invoiceNumber', payment_received: null, bill_received: 'billNumber', expense_recorded: 'description' };
const THRESHOLD_USD = 10_000n; // 100.00

interface PostInput {
  type: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
}

const validFor = (type: string, payload: Record<string, unknown>) => payload.netAmount !== '0' && (REQUIRED[type] === null || typeof payload[REQUIRED[type]!] === 'string');

const postInputArb = fc
  .record({
    type: fc.constantFrom(...TYPES),
    currency: fc.constantFrom('USD', 'EUR', 'JPY', 'ETH/18'),
    net: fc.noBias(fc.bigInt({ min: 0n, max: 30_000n })),
    tax: fc.noBias(fc.bigInt({ min: 0n, max: 5_000n })),
    labels: fc.subarray(['invoiceNumber', 'billNumber', 'description']),
    key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }),
  })
  .map(({ type, currency, net, tax, labels, key }): PostInput => {
    const cur = mustCurrency(currency);
    const payload: Record<string, unknown> = { currency, netAmount: net === 0n ? '0' : formatMinor(net, cur), taxAmount: formatMinor(tax, cur) };
    for (const l of labels) payload[l] = `${l}-x`;
    return { type, payload, ...(key ? { idempotencyKey: key } : {}) };
  });

function grossUsd(input: PostInput): bigint {
  if (input.payload.currency !== 'USD') return 0n;
  const minor = (v: unknown) => BigInt(String(v).replace('.', ''));
  return minor(input.payload.netAmount) + minor(input.payload.taxAmount);
}

class PostCommand implements fc.Command<Model, Real> {
  constructor(readonly input: PostInput) {}
  check = () => true;
  run(m: Model, r: Real) {
    m.lastBatch = undefined; // a batch is replayed only as the very next request
    const serialized = JSON.stringify(this.input);
    const earlier = this.input.idempotencyKey ? m.keys.get(this.input.idempotencyKey) : undefined;
    if (earlier && earlier.input !== serialized) {
      expect(() => postEvent(r.ctx, r.entityId, this.input)).toThrow(ConflictError);
      return;
    }
    const { event, replayed } = postEvent(r.ctx, r.entityId, this.input);
    if (earlier) {
      expect(replayed).toBe(true);
      expect(event.id).toBe(earlier.eventId);
      return;
    }
    const status: Status = !validFor(this.input.type, this.input.payload) ? 'failed' : grossUsd(this.input) >= THRESHOLD_USD ? 'pending_approval' : 'posted';
    expect(event.postingStatus).toBe(status);
    m.events.push({ id: event.id, type: this.input.type, payload: this.input.payload, status });
    if (this.input.idempotencyKey) m.keys.set(this.input.idempotencyKey, { input: serialized, eventId: event.id });
    m.lastPost = { input: this.input, eventId: event.id };
  }
  toString = () => `post(${JSON.stringify(this.input)})`;
}

class DecideCommand implements fc.Command<Model, Real> {
  constructor(
    readonly pick: number,
    readonly approve: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.events.length > 0;
  run(m: Model, r: Real) {
    m.lastBatch = undefined;
    const ev = m.events[this.pick % m.events.length];
    const act = () => (this.approve ? approveEvent(r.ctx, r.entityId, ev.id, r.userId) : rejectEvent(r.ctx, r.entityId, ev.id, r.userId, 'no'));
    if (ev.status !== 'pending_approval') {
      expect(act).toThrow(ConflictError);
      return;
    }
    const out = act();
    ev.status = this.approve ? 'posted' : 'failed';
    expect(out.postingStatus).toBe(ev.status);
  }
  toString = () => `${this.approve ? 'approve' : 'reject'}(${this.pick})`;
}

class ReclassifyCommand implements fc.Command<Model, Real> {
  constructor(
    readonly picks: number[],
    readonly newEventType: string,
  ) {}
  check = (m: Readonly<Model>) => m.events.length > 0;
  run(m: Model, r: Real) {
    const chosen = [...new Map(this.picks.map((p) => m.events[p % m.events.length]).map((e) => [e.id, e])).values()];
    const result = batchReclassify(r.ctx, r.entityId, chosen.map((e) => e.id), this.newEventType);
    const newIds: (string | undefined)[] = [];
    chosen.forEach((ev, i) => {
      const res = result.results[i];
      expect(res.eventId).toBe(ev.id);
      if (ev.status === 'reversed' && ev.reclassifiedToType === this.newEventType) {
        expect(res).toMatchObject({ success: true, newEventId: ev.newEventId });
      } else if (ev.status === 'posted' && ev.type !== this.newEventType && validFor(this.newEventType, ev.payload)) {
        expect(res.success).toBe(true);
        ev.status = 'reversed';
        ev.reclassifiedToType = this.newEventType;
        ev.newEventId = res.newEventId;
        m.events.push({ id: res.newEventId!, type: this.newEventType, payload: ev.payload, status: 'posted' });
      } else {
        expect(res.success).toBe(false);
      }
      newIds.push(res.newEventId);
    });
    m.lastBatch = { eventIds: chosen.map((e) => e.id), newEventType: this.newEventType, newIds };
  }
  toString = () => `reclassify(${this.picks.join(',')} → ${this.newEventType})`;
}

/** Replaying the last keyed post (at any later time), or the batch just run, changes nothing. */
class ReplayCommand implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>) => Boolean(m.lastPost?.input.idempotencyKey || m.lastBatch);
  run(m: Model, r: Real) {
    const before = snapshot(r);
    if (m.lastPost?.input.idempotencyKey) {
      const { event, replayed } = postEvent(r.ctx, r.entityId, m.lastPost.input);
      expect(replayed).toBe(true);
      expect(event.id).toBe(m.lastPost.eventId);
    }
    if (m.lastBatch) {
      const again = batchReclassify(r.ctx, r.entityId, m.lastBatch.eventIds, m.lastBatch.newEventType);
      again.results.forEach((res, i) => {
        if (m.lastBatch!.newIds[i]) expect(res.newEventId).toBe(m.lastBatch!.newIds[i]);
        else expect(res.success).toBe(false);
      });
    }
    expect(snapshot(r)).toEqual(before);
  }
  toString = () => 'replay()';
}

function snapshot(r: Real) {
  const q = (sql: string) => r.ctx.sqlite.prepare(sql).all(r.entityId);
  return {
    events: q('select id, posting_status, reclassified_to from ledger_events where entity_id = ? order by id'),
    entries: q('select count(*) as n from ledger_entries where entity_id = ?'),
    lines: q('select count(*) as n from ledger_lines where entity_id = ?'),
  };
}

function checkInvariants(m: Model, r: Real) {
  // Trial balance is zero per currency (getTrialBalance also asserts it internally).
  for (const t of getTrialBalance(r.ctx, r.entityId).totals) expect([t.currency, t.debit]).toEqual([t.currency, t.credit]);
  const db = r.ctx.sqlite;
  // Every reversal nets its original to zero on every account and currency.
  const unbalanced = db
    .prepare(
      `select rev.id from ledger_entries rev join ledger_lines l on l.entry_id in (rev.id, rev.reverses_entry_id)
       where rev.entity_id = ? and rev.kind = 'reversal'
       group by rev.id, l.account_id, l.currency
       having sum(case l.side when 'debit' then cast(l.amount as integer) else -cast(l.amount as integer) end) != 0`,
    )
    .all(r.entityId);
  expect(unbalanced).toEqual([]);
  // No event is reversed twice, and each status has exactly its entries.
  const rows = db
    .prepare(
      `select e.id, e.posting_status as status,
         sum(case j.kind when 'posting' then 1 else 0 end) as postings,
         sum(case j.kind when 'reversal' then 1 else 0 end) as reversals
       from ledger_events e left join ledger_entries j on j.event_id = e.id
       where e.entity_id = ? group by e.id`,
    )
    .all(r.entityId) as { id: string; status: Status; postings: number; reversals: number }[];
  const expected = { posted: [1, 0], reversed: [1, 1], pending_approval: [0, 0], failed: [0, 0], unposted: [0, 0] };
  for (const row of rows) expect([row.id, row.postings, row.reversals]).toEqual([row.id, ...expected[row.status]]);
  // The model and the ledger agree on every event's status.
  const real = new Map(rows.map((x) => [x.id, x.status]));
  expect(real.size).toBe(m.events.length);
  for (const ev of m.events) expect([ev.id, real.get(ev.id)]).toEqual([ev.id, ev.status]);
}

let server: TestServer;
let userId: string;
beforeAll(async () => {
  server = await startTestServer();
  userId = (await server.signup()).user.id;
});
afterAll(() => server.close());

describe('ledger properties', () => {
  it('keeps its invariants under random post / approve / reject / reclassify / replay sequences', () => {
    const commands = [
      postInputArb.map((i) => new PostCommand(i)),
      fc.tuple(fc.nat(), fc.boolean()).map(([p, a]) => new DecideCommand(p, a)),
      fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.constantFrom(...TYPES)).map(([p, t]) => new ReclassifyCommand(p, t)),
      fc.constant(new ReplayCommand()),
    ];
    let n = 0;
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40, size: 'max' }), (cmds) => {
        const entity = createEntity(server.ctx, userId, `prop ${++n}`);
        updateLedgerSettings(server.ctx, entity.id, { approvalThresholds: { USD: '100.00' } });
        const real: Real = { ctx: server.ctx, entityId: entity.id, userId };
        const model: Model = { events: [], keys: new Map() };
        const checked = [...cmds].map((c) => ({
          check: (m: Readonly<Model>) => c.check(m),
          run: (m: Model, r: Real) => {
            c.run(m, r);
            checkInvariants(m, r);
          },
          toString: () => c.toString(),
        }));
        fc.modelRun(() => ({ model, real }), checked);
      }),
      { numRuns: 80 },
    );
  });
});
