/**
 * Cross-entity isolation sweep, generated from GET /api/openapi.json (issue 12).
 *
 * Two entities, A and B, each with data in every area. For every operation that takes an id —
 * path or query parameter, or JSON body property at any depth, found by name (`…Id`, `…Ids`,
 * `{id}`) or by uuid format — A (a session, and an API key with every scope) sends B's ids:
 *  - B's entityId (x-entity-id header, or query and body) with B's other ids → 403;
 *  - one of B's ids at a time, A's own everywhere else, and all of B's ids together:
 *    in the path → 403 or 404; in the query or body (a reference or a filter) the answer must be
 *    exactly the answer for an id that was never issued, so B's ids are indistinguishable from
 *    unknown ones (a filter legitimately answers 200 with nothing; the contract answers 400 for a
 *    foreign documentId on create) — and never a schema-validation 400, which would mean the sweep
 *    did not reach the id check.
 * Never 2xx on a path id, never 5xx. B's data, read through every GET operation as B, is
 * deep-equal before and after. Then every entity-scoped write is refused with 403 for a viewer of
 * A and for an API key with only read:* scopes, with A's data unchanged.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';
import { addMember } from './documents-helpers.js';
import { manualClock, startReceiver, type Receiver } from './webhooks-receiver.js';
import { buildBody, parseOperations, randomValue, samples, type OpenApiDocument, type Operation, type Samples, type Slot } from './isolation-sweep-openapi.js';
import { pump, seedEntity, type Seeded } from './isolation-sweep-seed.js';

/** Which object of an entity an id name refers to. */
const ID_TABLE: Record<string, (d: Seeded) => string> = {
  entityId: (d) => d.entityId,
  userId: (d) => d.memberUserId,
  assignedTo: (d) => d.memberUserId,
  keyId: (d) => d.spareKeyId,
  categoryId: (d) => d.categoryId,
  ticketId: (d) => d.ticketId,
  messageId: (d) => d.messageId,
  attachmentId: (d) => d.attachmentId,
  eventId: (d) => d.eventId,
  accountId: (d) => d.accountId,
  subscriptionId: (d) => d.subscriptionId,
  deliveryId: (d) => d.deliveryId,
  notificationId: (d) => d.notificationId,
  folderId: (d) => d.folderId,
  parentId: (d) => d.folderId,
  grantId: (d) => d.grantId,
  documentId: (d) => d.documentId,
  requestId: (d) => d.requestId,
  signerId: (d) => d.signerId,
  fieldId: (d) => d.fieldId,
};

/** Ids that do not name an entity's object: never replaced by B's; A's own value is used. */
const NOT_ENTITY_IDS: Record<string, { reason: string; own: (d: Seeded) => string }> = {
  token: {
    reason: "A public signing token is the bearer credential of one signer: it opens that signer's view whoever presents it, and is not scoped by entity.",
    own: (d) => d.signingToken,
  },
  deviceId: {
    reason: "A device id on the hosted instance: the hosted instance resolves it within the entity of the caller's own device token; this install keeps no rows for it.",
    own: () => '0190f0f0-0000-7000-8000-000000000001',
  },
  invitationId: {
    reason: "An invitation on the hosted instance: the hosted instance resolves it within the entity of the caller's own device token (another entity's answers 404, checked in test/hosted/people-*.test.ts); this install keeps no rows for it.",
    own: () => '0190f0f0-0000-7000-8000-0000000000d1',
  },
  changeId: {
    reason: "An entry of a linked entity's sync queue: the sweep's entities are not linked, so neither has one (an unknown id answers 404; another entity's entry is checked in sync-devices.test.ts).",
    own: () => '0190f0f0-0000-7000-8000-0000000000c1',
  },
  correlationId: {
    reason: 'A free-form label the client chooses for its own events (not a uuid); two entities may use the same one.',
    own: (d) => d.correlationId,
  },
  deliveredBy: {
    reason: "Who delivers a webhook subscription: `hosted`, `this-device` or the id of a device on the hosted instance (as deviceId); the sweep's entities are not linked, so any value but `this-device` is a 400 and no row of another entity is named.",
    own: () => 'this-device',
  },
  transferId: {
    reason: "A row of the entity's wallet history: read with the caller's entity (another entity's id answers 404, server/wallet/retry-transfer.ts); the sweep's entities have no wallet on a chain, so neither has one.",
    own: () => '0190f0f0-0000-7000-8000-0000000000e1',
  },
  preparedId: {
    reason: "A proof prepared at the confirm screen, held in memory for the entity that asked: another entity naming it gets its own transfer proved instead (test/integration/wallet-relay-retry.test.ts).",
    own: () => '0190f0f0-0000-7000-8000-0000000000e2',
  },
  jobId: {
    reason: "A hosted relay job: the hosted relay keeps jobs with no entity (nothing may tie a transfer to one); this install only asks the caller's entity's hosted instance for it, and the sweep's entities are not linked (404).",
    own: () => '0190f0f0-0000-7000-8000-0000000000d1',
  },
};

/** Entity-scoped writes a viewer may make, with why. */
const VIEWER_MAY_WRITE: Record<string, string> = {
  'POST /api/notifications/read-all': "marks the viewer's own notifications read (personal read state)",
  'POST /api/notifications/{notificationId}/read': "marks one notification read for the viewer only (personal read state)",
  'PUT /api/notifications/email-preferences': "sets the viewer's own e-mail choices per kind of notification (personal, like read state)",
  'POST /api/sync/run': "runs a sync cycle (a viewer's device pulls; it has no changes of its own to push): no data of the entity changes",
};

/** Request bodies that are not JSON, which the OpenAPI document does not describe. */
const RAW_BODIES: Record<string, { contentType: string; data: () => Promise<Uint8Array<ArrayBuffer>> }> = {
  'POST /api/documents': { contentType: 'application/pdf', data: async () => new Uint8Array(await makePdf(1, [612, 792], 'Sweep upload')) },
};

interface Principal {
  name: string;
  headers: Record<string, string>;
  session: boolean;
}

interface Sent {
  status: number;
  body: unknown;
}

interface Probe {
  op: Operation;
  label: string;
  principal: Principal;
  /** The entity named in the request: in x-entity-id (sessions) or the query (and body where the schema has it). */
  entity: { id: string; via: 'header' | 'query' } | null;
  /** Slot key → value. */
  ids: Map<string, unknown>;
}

type Expectation = { kind: 'refused'; statuses: number[] } | { kind: 'like-unknown'; control: Map<string, unknown> };

let server: TestServer;
let a: SessionClient;
let b: SessionClient;
let dataA: Seeded;
let dataB: Seeded;
let receiverA: Receiver;
let receiverB: Receiver;
let ops: Operation[];
let sample: Samples;
let rawBodies: Map<string, { contentType: string; data: Uint8Array<ArrayBuffer> }>;
let sessionA: Principal;
let sessionB: Principal;
/** What A could see before B existed: whatever else B's data shows is B's own. */
let snapshotBeforeB: Record<string, Sent>;
let keyA: Principal;
const anon: Principal = { name: 'anonymous', headers: {}, session: false };
let requestsSent = 0;
/** Every request sent and its answer, as text, for the leak scan. */
let exchanges: { label: string; request: string; response: string }[] = [];
const clock = manualClock(Date.parse('2026-11-02T10:00:00.000Z'));

beforeAll(async () => {
  server = await startTestServer({ clock });
  receiverA = await startReceiver();
  receiverB = await startReceiver();
  const doc = (await server.anon.get<OpenApiDocument>('/api/openapi.json')).body;
  ops = parseOperations(doc);
  sample = samples(doc, () => clock.now());
  rawBodies = new Map(await Promise.all(Object.entries(RAW_BODIES).map(async ([label, r]) => [label, { contentType: r.contentType, data: await r.data() }] as const)));

  a = await server.signup({ name: 'Alice A', entityName: 'Entity A' });
  sessionA = sessionPrincipal('session of A', a);
  dataA = await seedEntity(server, a, receiverA.url, 'A');
  snapshotBeforeB = await snapshot(sessionA, dataA);
  b = await server.signup({ name: 'Bob B', entityName: 'Entity B' });
  sessionB = sessionPrincipal('session of B', b);
  dataB = await seedEntity(server, b, receiverB.url, 'B');
  keyA = keyPrincipal('API key of A (all scopes)', (await server.apiKeyClient(a, scopesOf(ops))).key);
});

afterAll(async () => {
  await server?.close();
  await receiverA?.close();
  await receiverB?.close();
});

function sessionPrincipal(name: string, c: SessionClient): Principal {
  return { name, headers: { cookie: c.cookie, origin: server.url }, session: true };
}

function keyPrincipal(name: string, key: string): Principal {
  return { name, headers: { authorization: `Bearer ${key}` }, session: false };
}

function scopesOf(list: Operation[]): string[] {
  return [...new Set(list.flatMap((op) => (op.access.kind === 'entity' && op.access.scope ? [op.access.scope] : [])))].sort();
}

const notEntityId = (slot: Slot) => slot.idName in NOT_ENTITY_IDS;
const isEntity = (slot: Slot) => slot.idName === 'entityId';

/**
 * The slots a request fills: the path, what the schema requires, the slot under test, and one
 * optional body id (bodies such as "give either fieldIds or signerId" need exactly one).
 */
function slotsFor(op: Operation, tested?: Slot): Slot[] {
  const chosen = op.slots.filter((s) => !isEntity(s) && (s.in === 'path' || s.required || s === tested));
  const optionalBodyChosen = chosen.some((s) => s.in === 'body' && !s.required);
  const firstOptional = op.slots.find((s) => s.in === 'body' && !s.required && !isEntity(s) && !notEntityId(s));
  if (!optionalBodyChosen && firstOptional && !chosen.includes(firstOptional)) chosen.push(firstOptional);
  return chosen;
}

/** Values for `slots`: each from A, B or never issued, as `owner` says (ids in NOT_ENTITY_IDS: always A's own). */
function fill(slots: Slot[], owner: (s: Slot) => Seeded | 'random'): Map<string, unknown> {
  const ids = new Map<string, unknown>();
  for (const slot of slots) {
    const allowed = NOT_ENTITY_IDS[slot.idName];
    if (allowed) {
      ids.set(slot.key, allowed.own(dataA));
      continue;
    }
    const from = owner(slot);
    if (from === 'random') {
      ids.set(slot.key, randomValue(slot));
      continue;
    }
    const id = ID_TABLE[slot.idName](from);
    ids.set(slot.key, slot.array ? [id] : id);
  }
  return ids;
}

async function send(p: Probe): Promise<Sent> {
  const { op } = p;
  const headers: Record<string, string> = { ...p.principal.headers };
  const query = new URLSearchParams();
  let path = op.path;
  for (const slot of op.slots.filter((s) => s.in === 'path')) {
    const value = isEntity(slot) ? p.entity?.id : p.ids.get(slot.key);
    if (typeof value !== 'string') throw new Error(`${p.label}: no value for ${slot.key}`);
    path = path.replace(`{${slot.name}}`, encodeURIComponent(value));
  }
  for (const [key, value] of p.ids) if (key.startsWith('query:')) query.set(key.slice(6), String(value));
  for (const q of op.requiredQuery) query.set(q.name, String(sample.value(q.name, q.schema)));
  const bodyIds = new Map([...p.ids].filter(([k]) => k.startsWith('body:')));
  if (p.entity?.via === 'header') headers['x-entity-id'] = p.entity.id;
  if (p.entity?.via === 'query' && !op.slots.some((s) => s.key === 'path:entityId')) {
    query.set('entityId', p.entity.id);
    if (op.slots.some((s) => s.key === 'body:entityId')) bodyIds.set('body:entityId', p.entity.id);
  }
  let body: BodyInit | undefined;
  const raw = rawBodies.get(op.label);
  if (raw) {
    headers['content-type'] = raw.contentType;
    body = raw.data;
  } else if (op.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(buildBody(op, bodyIds, sample));
  }
  const qs = query.toString();
  const url = `${path}${qs ? `?${qs}` : ''}`;
  requestsSent++;
  const res = await fetch(`${server.url}${url}`, { method: op.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0;
  const sent = { status: res.status, body: json ? JSON.parse(bytes.toString('utf8')) : { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') } };
  exchanges.push({ label: `${p.label} as ${p.principal.name}`, request: `${url} ${typeof body === 'string' ? body : ''}`, response: JSON.stringify(sent.body) });
  return sent;
}

const MARKER = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[\w.+-]+@[\w-]+\.[\w.]+/gi;

/** Ids and e-mail addresses that appear in `theirs` and nowhere in `ours`. */
function markersOnlyIn(theirs: Record<string, Sent>, ours: Record<string, Sent>): Set<string> {
  const own = new Set(JSON.stringify(ours).match(MARKER) ?? []);
  return new Set((JSON.stringify(theirs).match(MARKER) ?? []).filter((m) => !own.has(m)));
}

/** Answers that show one of `markers` the request did not itself contain. */
function leaks(markers: Set<string>, seen: typeof exchanges): string[] {
  return seen.flatMap((x) => {
    const shown = (x.response.match(MARKER) ?? []).filter((m) => markers.has(m) && !x.request.includes(m));
    return shown.length ? [`${x.label} → ${x.request.slice(0, 200)} answered with B's ${[...new Set(shown)].join(', ')}: ${x.response.slice(0, 300)}`] : [];
  });
}

function describeProbe(p: Probe, res: Sent): string {
  const ids = Object.fromEntries(p.ids);
  return `${p.label} as ${p.principal.name}${p.entity ? ` (entityId ${p.entity.id === dataB.entityId ? 'B' : 'A'} via ${p.entity.via})` : ''} with ${JSON.stringify(ids)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
}

/** A 400 produced by schema validation (zod issues in details): the request never reached the handler. */
function isValidationError(res: Sent): boolean {
  const details = (res.body as { details?: unknown } | null)?.details;
  return res.status === 400 && Array.isArray(details) && details.every((d) => typeof d === 'object' && d !== null && 'path' in d && 'message' in d);
}

/** The answer with the ids this request had and `other` did not (the ones under test) replaced by `<id>`. */
function normalize(res: Sent, ids: Map<string, unknown>, other: Map<string, unknown>): Sent {
  let text = JSON.stringify(res.body);
  for (const [key, value] of ids) {
    if (JSON.stringify(other.get(key)) === JSON.stringify(value)) continue;
    for (const v of [value].flat()) if (typeof v === 'string') text = text.split(v).join('<id>');
  }
  return { status: res.status, body: JSON.parse(text) };
}

/** Sends one probe and returns what is wrong with the answer, if anything. */
async function check(p: Probe, expectation: Expectation): Promise<string | null> {
  const res = await send(p);
  if (res.status >= 500) return `server error: ${describeProbe(p, res)}`;
  if (expectation.kind === 'refused') {
    return expectation.statuses.includes(res.status) ? null : `expected ${expectation.statuses.join(' or ')}: ${describeProbe(p, res)}`;
  }
  if (isValidationError(res)) return `the sweep's request did not pass validation (fix the body generator): ${describeProbe(p, res)}`;
  const controlProbe = { ...p, ids: expectation.control };
  const control = await send(controlProbe);
  if (control.status >= 500) return `server error: ${describeProbe(controlProbe, control)}`;
  const got = normalize(res, p.ids, expectation.control);
  const unknown = normalize(control, expectation.control, p.ids);
  if (JSON.stringify(got) === JSON.stringify(unknown)) return null;
  return `B's id answered differently from an unknown id:\n    B's:     ${describeProbe(p, res)}\n    unknown: ${describeProbe(controlProbe, control)}`;
}

/** What an entity's member or key sees through every GET operation, with the entity's own ids. */
async function snapshot(principal: Principal, d: Seeded): Promise<Record<string, Sent>> {
  const out: Record<string, Sent> = {};
  for (const op of ops) {
    if (op.method !== 'GET' || op.access.kind === 'public' || op.streams || op.slots.some((s) => s.in === 'path' && notEntityId(s))) continue;
    const pathSlots = op.slots.filter((s) => s.in === 'path');
    const probe: Probe = { op, label: op.label, principal, entity: op.access.kind === 'entity' ? { id: d.entityId, via: principal.session ? 'header' : 'query' } : null, ids: fill(pathSlots, () => d) };
    out[op.label] = await send(probe);
  }
  return out;
}

function withoutLastUse(snap: Record<string, Sent>, keyId: string): Record<string, Sent> {
  const keys = snap['GET /api/settings/api-keys'];
  if (!Array.isArray(keys?.body)) throw new Error('the snapshot has no API key list');
  const body = keys.body.map((k: { id: string }) => (k.id === keyId ? { ...k, lastUsedAt: '(used by the sweep)' } : k));
  return { ...snap, 'GET /api/settings/api-keys': { ...keys, body } };
}

describe('cross-entity isolation sweep (generated from the OpenAPI document)', () => {
  it('has a value for every id the API takes, or a stated reason why it is not an entity-owned id', () => {
    const unmapped = ops.flatMap((op) => op.slots.filter((s) => !(s.idName in ID_TABLE) && !notEntityId(s)).map((s) => `${op.label}: ${s.key} (id name ${s.idName})`));
    expect(unmapped, 'add these id names to ID_TABLE (with B data in isolation-sweep-seed.ts) or to NOT_ENTITY_IDS with a reason').toEqual([]);
    const labels = new Set(ops.map((op) => op.label));
    expect([...Object.keys(RAW_BODIES), ...Object.keys(VIEWER_MAY_WRITE)].filter((l) => !labels.has(l))).toEqual([]);
    expect(ops.filter((op) => op.slots.length > 0).length).toBeGreaterThan(50);
  });

  it("A, with a session or an all-scopes API key, can neither read nor change B's data", { timeout: 180_000 }, async () => {
    await pump(server);
    const before = await snapshot(sessionB, dataB);
    await pump(server);
    expect(await snapshot(sessionB, dataB), 'snapshots must be stable for the comparison to mean anything').toEqual(before);
    const markersOfB = markersOnlyIn(before, snapshotBeforeB);
    expect(markersOfB.size).toBeGreaterThan(30);
    const receivedByB = receiverB.received.length;
    // Anything written during the sweep gets a later timestamp than the snapshot holds; the clock
    // goes back before the second snapshot so that values computed from "now" (a trial balance's
    // asOf) compare equal.
    clock.advance(60_000);
    exchanges = [];
    requestsSent = 0;

    const failures: string[] = [];
    let probes = 0;
    const started = performance.now();
    const run = async (p: Probe, e: Expectation) => {
      probes++;
      const problem = await check(p, e);
      if (problem) failures.push(problem);
    };
    const swept = ops.filter((op) => op.slots.length > 0 || op.access.kind === 'entity');
    for (const op of swept) {
      const principals = op.access.kind === 'public' ? [anon] : [sessionA, keyA];
      const viaOf = (pr: Principal) => (pr.session ? ('header' as const) : ('query' as const));

      if (op.access.kind === 'entity') {
        const ids = fill(slotsFor(op), () => dataB);
        const refused: Expectation = { kind: 'refused', statuses: [403] };
        await run({ op, label: `${op.label} [B's entity]`, principal: sessionA, entity: { id: dataB.entityId, via: 'header' }, ids }, refused);
        await run({ op, label: `${op.label} [B's entity]`, principal: sessionA, entity: { id: dataB.entityId, via: 'query' }, ids }, refused);
        await run({ op, label: `${op.label} [B's entity]`, principal: keyA, entity: { id: dataB.entityId, via: 'query' }, ids }, refused);
      }

      const foreign = op.slots.filter((s) => !isEntity(s) && !notEntityId(s));
      const cases: { name: string; slots: Slot[]; tested: Slot[] }[] = foreign.map((t) => ({ name: `B's ${t.key}`, slots: slotsFor(op, t), tested: [t] }));
      const all = slotsFor(op).filter((s) => !notEntityId(s));
      if (all.length >= 2) cases.push({ name: "all B's ids", slots: slotsFor(op), tested: all });

      for (const c of cases) {
        const ids = fill(c.slots, (s) => (c.tested.includes(s) ? dataB : dataA));
        // One of B's ids in the path: 403 or 404. Several of B's ids together: which one the server
        // rejects first is its choice (a body reference may be checked before the path target),
        // so the answer must be exactly the one for ids never issued.
        const pathOnly = c.tested.length === 1 && c.tested[0].in === 'path';
        const expectation: Expectation = pathOnly
          ? { kind: 'refused', statuses: [403, 404] }
          : { kind: 'like-unknown', control: fill(c.slots, (s) => (c.tested.includes(s) ? 'random' : dataA)) };
        for (const principal of principals) {
          const entity = op.access.kind === 'entity' ? { id: dataA.entityId, via: viaOf(principal) } : null;
          await run({ op, label: `${op.label} [${c.name}]`, principal, entity, ids }, expectation);
        }
      }
    }
    const ms = Math.round(performance.now() - started);
    console.log(`isolation sweep: ${swept.length} operations, ${probes} probes, ${requestsSent} requests (with unknown-id controls), ${ms} ms`);

    clock.advance(-60_000);
    await pump(server);
    // Everything A can list, with its session and its key, is scanned for B's data too.
    await snapshot(sessionA, dataA);
    await snapshot(keyA, dataA);
    expect(failures, failures.join('\n')).toEqual([]);
    const leaked = leaks(markersOfB, exchanges);
    expect(leaked, `answers to A that show B's ids or e-mail addresses:\n${leaked.join('\n')}`).toEqual([]);
    expect(await snapshot(sessionB, dataB)).toEqual(before);
    expect(receiverB.received.length, "nothing A did may reach B's webhook endpoint").toBe(receivedByB);
  });

  it('a viewer of A, and an API key of A with only read:* scopes, are refused every write and change nothing', { timeout: 120_000 }, async () => {
    const roles = (await server.anon.get<Record<string, string[]>>('/api/auth/roles')).body;
    const viewer = sessionPrincipal('viewer of A', await addMember(server, a, 'viewer'));
    const readScopes = scopesOf(ops).filter((s) => s.startsWith('read:'));
    const readKeyClient = await server.apiKeyClient(a, readScopes);
    const readKey = keyPrincipal(`API key of A (${readScopes.join(', ')})`, readKeyClient.key);
    await send({ op: ops.find((o) => o.label === 'GET /api/auth/me')!, label: 'warm-up', principal: readKey, entity: null, ids: new Map() }); // sets lastUsedAt once

    await pump(server);
    const before = await snapshot(sessionA, dataA);
    clock.advance(60_000);
    const writes = ops.filter((op) => op.isWrite && op.access.kind === 'entity');
    const viewerMay = writes.filter((op) => op.access.kind === 'entity' && roles.viewer.includes(op.access.permission)).map((op) => op.label);
    expect(viewerMay.sort(), 'a write route a viewer may use needs a reason in VIEWER_MAY_WRITE').toEqual(Object.keys(VIEWER_MAY_WRITE).sort());
    const readKeyMay = writes.filter((op) => op.access.kind === 'entity' && op.access.scope?.startsWith('read:')).map((op) => op.label);
    expect(readKeyMay, 'no write route may accept a read:* scope').toEqual([]);

    const failures: string[] = [];
    let probes = 0;
    for (const op of writes) {
      const ids = fill(slotsFor(op), () => dataA);
      const targets: [Principal, 'header' | 'query'][] = [[readKey, 'query']];
      if (!viewerMay.includes(op.label)) targets.push([viewer, 'header']);
      for (const [principal, via] of targets) {
        probes++;
        const problem = await check({ op, label: op.label, principal, entity: { id: dataA.entityId, via }, ids }, { kind: 'refused', statuses: [403] });
        if (problem) failures.push(problem);
      }
    }
    console.log(`write-permission sweep: ${writes.length} write operations, ${probes} probes`);
    clock.advance(-60_000);
    await pump(server);
    expect(failures, failures.join('\n')).toEqual([]);
    // The read-only key authenticates before its scope is checked, so its lastUsedAt records the
    // refused attempts: that one field of that one key is the only change allowed.
    expect(withoutLastUse(await snapshot(sessionA, dataA), readKeyClient.keyId)).toEqual(withoutLastUse(before, readKeyClient.keyId));
  });
});
