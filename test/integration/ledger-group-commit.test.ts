import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, memberClient, trialBalanceIsZero } from './ledger-helpers.js';
import { groupCommitStats, MAX_WAITING_EVENTS, postEventGrouped } from '../../server/ledger/group-commit.js';
import { prepareEvent } from '../../server/ledger/post-event.js';
import { HttpError } from '../../server/http/errors.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Outbox records of the ledger per event id: each recorded event must fire exactly once. */
function outboxCountsByEvent(entityId: string): Map<string, number> {
  const rows = server.ctx.sqlite.prepare("select data from outbox where entity_id = ? and type like 'ledger.event.%'").all(entityId) as { data: string }[];
  const counts = new Map<string, number>();
  for (const r of rows) {
    const id = (JSON.parse(r.data) as { eventId: string }).eventId;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function allEvents(client: SessionClient) {
  const events: { id: string; correlationId: string | null; postingStatus: string }[] = [];
  for (let page = 1; ; page++) {
    const res = await client.get(`/api/ledger/events?pageSize=200&page=${page}`);
    expect(res.status).toBe(200);
    events.push(...res.body.events);
    if (events.length >= res.body.total || res.body.events.length === 0) return events;
  }
}

describe('group commit of concurrent POST /api/ledger/events', () => {
  it('answers 200 concurrent posts with 201, posts them all, balanced, in fewer transactions than events', async () => {
    const owner = await server.signup();
    // Open the client's 200 connections first. The client shares this process's event loop, so
    // connections opened during the burst would reach the server one per commit; real clients
    // (other processes) keep sending while a commit waits for its fsync.
    const warm = await Promise.all(Array.from({ length: 200 }, () => owner.get('/api/ledger/settings')));
    expect(warm.every((r) => r.status === 200)).toBe(true);
    const before = groupCommitStats(server.ctx);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => owner.post('/api/ledger/events', { ...invoice(`${100 + i}.00`, '10.00'), correlationId: `burst-${i}` })));
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201));
    expect(responses.every((r) => r.body.postingStatus === 'posted')).toBe(true);
    const after = groupCommitStats(server.ctx);
    expect(after.events - before.events).toBe(200);
    expect(after.transactions - before.transactions).toBeLessThan(200);
    expect(after.largestGroup).toBeGreaterThan(1);

    const events = await allEvents(owner);
    expect(events).toHaveLength(200);
    expect(new Set(events.map((e) => e.id))).toEqual(new Set(responses.map((r) => r.body.id)));
    const journal = await owner.get('/api/ledger/journal?pageSize=1');
    expect(journal.body.total).toBe(200);
    expect(await trialBalanceIsZero(owner)).toBe(true);
    const fired = outboxCountsByEvent(owner.entityId);
    expect(fired.size).toBe(200);
    expect([...fired.values()].every((n) => n === 1)).toBe(true);
  });

  it('refuses the bad events of a concurrent burst with their 4xx and posts the rest', async () => {
    const owner = await server.signup();
    const first = await owner.post('/api/ledger/events', { ...invoice('5.00', '1.00'), idempotencyKey: 'taken' });
    expect(first.status).toBe(201);
    const bodies: Record<string, unknown>[] = Array.from({ length: 40 }, (_, i) => ({ ...invoice('10.00', '2.00'), correlationId: `ok-${i}` }));
    bodies.splice(13, 0, { ...invoice('99.00', '1.00'), idempotencyKey: 'taken' }); // same key, other input → 409
    bodies.splice(27, 0, { type: 'no_such_type', payload: {} }); // → 400
    bodies.splice(31, 0, { type: 'invoice_created', payload: { currency: 'USD' } }); // invalid payload → 201 failed
    const responses = await Promise.all(bodies.map((b) => owner.post('/api/ledger/events', b)));
    expect(responses[13].status).toBe(409);
    expect(responses[13].body).toMatchObject({ error: expect.stringContaining('idempotencyKey'), details: { eventId: first.body.id } });
    expect(responses[27].status).toBe(400);
    expect(responses[31].status).toBe(201);
    expect(responses[31].body.postingStatus).toBe('failed');
    const good = responses.filter((_, i) => i !== 13 && i !== 27 && i !== 31);
    expect(good.map((r) => r.status)).toEqual(Array(40).fill(201));
    expect(good.every((r) => r.body.postingStatus === 'posted')).toBe(true);
    const events = await allEvents(owner);
    expect(events).toHaveLength(42); // the first, 40 good, the failed one
    expect(await trialBalanceIsZero(owner)).toBe(true);
  });

  it('posts one event for an idempotency key repeated concurrently; the others are replays', async () => {
    const owner = await server.signup();
    const body = { ...invoice('70.00', '7.00'), idempotencyKey: 'once', correlationId: 'once' };
    const responses = await Promise.all(Array.from({ length: 25 }, () => owner.post('/api/ledger/events', body)));
    const created = responses.filter((r) => r.status === 201);
    const replayed = responses.filter((r) => r.status === 200);
    expect(created).toHaveLength(1);
    expect(replayed).toHaveLength(24);
    expect(replayed.every((r) => r.headers.get('idempotent-replayed') === 'true' && r.body.id === created[0].body.id)).toBe(true);
    const list = await owner.get('/api/ledger/events?correlationId=once');
    expect(list.body.total).toBe(1);
    expect(outboxCountsByEvent(owner.entityId).get(created[0].body.id)).toBe(1);
  });

  it('posts events queued together in one transaction, a savepoint each: a failure undoes only its own event', async () => {
    const owner = await server.signup();
    const { ctx } = server;
    const item = (body: Record<string, unknown>) => ({ entityId: owner.entityId, prepared: prepareEvent(body as never), defaults: { source: 'test' } });
    // The fourth event's outbox record fails, after its event row and journal entry were
    // written (records: a → 1st, b and the conflict record nothing, the broken one → 2nd).
    const record = ctx.events.record;
    let calls = 0;
    ctx.events.record = (tx, event) => {
      if (++calls === 2) throw new Error('outbox write failed');
      return record.call(ctx.events, tx, event);
    };
    try {
      const before = groupCommitStats(ctx);
      // Queued in the same turn of the event loop: one group.
      const keyed = { ...invoice('1.00', '0.10'), idempotencyKey: 'k1' };
      const a = postEventGrouped(ctx, item(keyed));
      const b = postEventGrouped(ctx, item(keyed)); // replay within the group
      const conflict = postEventGrouped(ctx, item({ ...invoice('2.00', '0.10'), idempotencyKey: 'k1' })); // same key, other input
      const broken = postEventGrouped(ctx, item({ ...invoice('3.00', '0.10'), correlationId: 'broken' }));
      const d = postEventGrouped(ctx, item({ ...invoice('4.00', '0.10'), correlationId: 'after' }));
      const settled = await Promise.allSettled([a, b, conflict, broken, d]);
      const after = groupCommitStats(ctx);
      expect(after.transactions - before.transactions).toBe(1);
      expect(after.events - before.events).toBe(5);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
      const [ra, rb, rc, rBroken] = settled;
      expect(ra.status === 'fulfilled' && ra.value.replayed).toBe(false);
      expect(rb.status === 'fulfilled' && rb.value.replayed && rb.value.event.id === (ra.status === 'fulfilled' ? ra.value.event.id : '')).toBe(true);
      expect(rc.status === 'rejected' && rc.reason instanceof HttpError && rc.reason.status).toBe(409);
      expect(rBroken.status === 'rejected' && (rBroken.reason as Error).message).toBe('outbox write failed');
    } finally {
      ctx.events.record = record;
    }
    const events = await allEvents(owner);
    expect(events.map((e) => e.correlationId).sort()).toEqual(['after', null]);
    const orphanEntries = ctx.sqlite.prepare('select count(*) as n from ledger_entries where entity_id = ? and event_id not in (select id from ledger_events)').get(owner.entityId) as { n: number };
    expect(orphanEntries.n).toBe(0);
    expect(await trialBalanceIsZero(owner)).toBe(true);
    expect([...outboxCountsByEvent(owner.entityId).values()]).toEqual([1, 1]);
  });

  it(`refuses with 503 and Retry-After beyond ${MAX_WAITING_EVENTS} waiting events`, async () => {
    const owner = await server.signup();
    const prepared = prepareEvent(invoice('1.00', '0.00'));
    const queued = Array.from({ length: MAX_WAITING_EVENTS }, () => postEventGrouped(server.ctx, { entityId: owner.entityId, prepared, defaults: {} }));
    const refused = postEventGrouped(server.ctx, { entityId: owner.entityId, prepared, defaults: {} });
    await expect(refused).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
    const results = await Promise.all(queued);
    expect(results.every((r) => r.event.postingStatus === 'posted')).toBe(true);
    expect(await trialBalanceIsZero(owner)).toBe(true);
  });
});

describe('POST /api/ledger/events/batch', () => {
  it('answers a result per event, in order, committing the good ones', async () => {
    const owner = await server.signup();
    const events = [
      { ...invoice('10.00', '1.00'), correlationId: 'b0' },
      { type: 'no_such_type', payload: {} },
      { payload: { currency: 'USD' } },
      { type: 'invoice_created', payload: { currency: 'USD' }, correlationId: 'b3' },
      { ...invoice('20.00', '2.00'), idempotencyKey: 'bk', correlationId: 'b4' },
      { ...invoice('20.00', '2.00'), idempotencyKey: 'bk', correlationId: 'b4' },
      { ...invoice('30.00', '3.00'), idempotencyKey: 'bk' },
      { ...invoice('40.00', '4.00'), correlationId: 'b7' },
    ];
    events[5] = { ...events[4] }; // identical input: a replay within the batch
    const res = await owner.post('/api/ledger/events/batch', { events });
    expect(res.status).toBe(200);
    const { results } = res.body;
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 400, 400, 201, 201, 200, 409, 201]);
    expect(results[0].event).toMatchObject({ postingStatus: 'posted', source: 'ui', correlationId: 'b0' });
    expect(results[1].error).toMatch(/Unknown event type/);
    expect(results[2]).toMatchObject({ error: expect.stringContaining('type'), details: expect.any(Array) });
    expect(results[3].event.postingStatus).toBe('failed');
    expect(results[5].event.id).toBe(results[4].event.id);
    expect(results[6]).toMatchObject({ error: expect.stringContaining('idempotencyKey'), details: { eventId: results[4].event.id } });
    const stored = await allEvents(owner);
    expect(stored.map((e) => e.correlationId).sort()).toEqual(['b0', 'b3', 'b4', 'b7']);
    expect(await trialBalanceIsZero(owner)).toBe(true);
    const fired = outboxCountsByEvent(owner.entityId);
    expect([...fired.values()]).toEqual([1, 1, 1, 1]);
    // Retrying the whole batch: the keyed event is replayed, the others are new events.
    const again = await owner.post('/api/ledger/events/batch', { events: [events[4]] });
    expect(again.body.results[0]).toMatchObject({ status: 200, event: { id: results[4].event.id } });
  });

  it('takes 1,000 events in one transaction and refuses more, and bodies over the limit', async () => {
    const owner = await server.signup();
    const before = groupCommitStats(server.ctx);
    const events = Array.from({ length: 1000 }, (_, i) => ({ ...invoice('1.00', '0.50'), idempotencyKey: `bulk-${i}` }));
    const res = await owner.post('/api/ledger/events/batch', { events });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1000);
    expect(res.body.results.every((r: { status: number; event: { idempotencyKey: string } }, i: number) => r.status === 201 && r.event.idempotencyKey === `bulk-${i}`)).toBe(true);
    expect(groupCommitStats(server.ctx).transactions - before.transactions).toBe(1);
    expect((await owner.get('/api/ledger/events?pageSize=1')).body.total).toBe(1000);
    expect(await trialBalanceIsZero(owner)).toBe(true);

    const tooMany = await owner.post('/api/ledger/events/batch', { events: [...events, invoice()] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/At most 1000 events per batch/);
    const empty = await owner.post('/api/ledger/events/batch', { events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toEqual(expect.any(String));
    const huge = await owner.post('/api/ledger/events/batch', { events: [{ ...invoice(), metadata: { blob: 'x'.repeat(2_000_000) } }] });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: 'Request body too large' });
    expect((await owner.get('/api/ledger/events?pageSize=1')).body.total).toBe(1000);
  });

  it('needs the same permissions as a single post: viewers and keys without write:ledger get 403', async () => {
    const owner = await server.signup();
    const viewer = await memberClient(server, owner, 'viewer');
    const refused = await viewer.post('/api/ledger/events/batch', { events: [invoice()] });
    expect(refused.status).toBe(403);
    const readKey = await server.apiKeyClient(owner, ['read:ledger']);
    expect((await readKey.post('/api/ledger/events/batch', { entityId: owner.entityId, events: [invoice()] })).status).toBe(403);
    expect((await server.anon.post('/api/ledger/events/batch', { entityId: owner.entityId, events: [invoice()] })).status).toBe(401);
    const writeKey = await server.apiKeyClient(owner, ['read:ledger', 'write:ledger']);
    const ok = await writeKey.post('/api/ledger/events/batch', { entityId: owner.entityId, events: [invoice(), invoice()] });
    expect(ok.status).toBe(200);
    expect(ok.body.results.map((r: { status: number; event: { source: string } }) => [r.status, r.event.source])).toEqual([
      [201, 'api'],
      [201, 'api'],
    ]);
    expect((await owner.get('/api/ledger/events?pageSize=1')).body.total).toBe(2);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await server.anon.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    const op = doc.body.paths['/api/ledger/events/batch']?.post;
    expect(op).toBeDefined();
    expect(op.requestBody).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '403', '413']));
  });
});

describe('group commit on a synced device', () => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await startSyncPair('Group commit sync');
  }, 120_000);
  afterAll(() => pair?.close());

  it('gives each event of a group its own sync change group, and the events reach the other device', async () => {
    const { a, onA, onB } = pair;
    const item = (body: Record<string, unknown>) => ({ entityId: onA.entityId, prepared: prepareEvent(body as never), defaults: {} });
    const before = groupCommitStats(a.ctx);
    const posted = await Promise.all([0, 1, 2].map((i) => postEventGrouped(a.ctx, item({ ...invoice(`${10 + i}.00`, '1.00'), correlationId: `sync-${i}` }))));
    expect(groupCommitStats(a.ctx).transactions - before.transactions).toBe(1);
    const ids = posted.map((p) => p.event.id);
    const groups = a.ctx.sqlite
      .prepare(`select row_id as rowId, group_id as groupId from sync_changes where table_name = 'ledger_events' and row_id in (${ids.map(() => '?').join(', ')})`)
      .all(...ids) as { rowId: string; groupId: string }[];
    expect(groups).toHaveLength(3);
    expect(new Set(groups.map((g) => g.groupId)).size).toBe(3);
    // An event's entry and lines travel in its group.
    for (const { rowId, groupId } of groups) {
      const entryGroups = a.ctx.sqlite.prepare(`select distinct group_id as g from sync_changes where table_name = 'ledger_entries' and row_id in (select id from ledger_entries where event_id = ?)`).all(rowId) as { g: string }[];
      expect(entryGroups).toEqual([{ g: groupId }]);
    }
    await pair.settle();
    const onOther = await onB.get('/api/ledger/events?correlationId=sync-1');
    expect(onOther.body.total).toBe(1);
    expect(await trialBalanceIsZero(onB)).toBe(true);
  });
});
