// The event catalogue as a contract (issue 27): every event type the server records has a zod
// schema, `record` refuses a payload that does not match it, the OpenAPI document publishes every
// deliverable type under `webhooks`, and the bodies a real subscription receives over HTTP
// validate against the schema published for their type.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { manualClock, startReceiver, type Receiver } from './webhooks-receiver.js';
import { postEvent, invoice } from './ledger-helpers.js';
import { draftRequest, uploadPdf } from './documents-helpers.js';
import { eventCatalogue, eventDefinitions } from '../../server/events/catalogue.js';
import type { EventBus } from '../../server/events/bus.js';
import type { Db } from '../../server/db/open.js';

const W = '/api/webhook-subscriptions';
let server: TestServer;
let owner: SessionClient;
let receiver: Receiver;
const clock = manualClock();

beforeAll(async () => {
  server = await startTestServer({ clock });
  owner = await server.signup({ name: 'Carla Contract' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function pump() {
  server.ctx.events.drain();
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}

/** The event types named where events are made: `record` calls, the hosted instance's own events, template types. */
function producedTypes(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const src = fs.readFileSync(file, 'utf8');
        for (const m of src.matchAll(/\.record\([^;]*?type: '([a-z_.]+)'/g)) found.add(m[1]);
        for (const m of src.matchAll(/eventChange\([^,]+, [^,]+, '([a-z_.]+)'/g)) found.add(m[1]);
        for (const m of src.matchAll(/type: 'entity_events'[\s\S]{0,200}?type: '([a-z_.]+)'/g)) found.add(m[1]);
        for (const m of src.matchAll(/type: `(ledger\.event\.)\$\{status\}`/g)) for (const s of ['posted', 'pending_approval', 'failed']) found.add(m[1] + s);
        for (const m of src.matchAll(/^\s+\w+: '(transfer\.[a-z]+)',$/gm)) found.add(m[1]);
      }
    }
  };
  walk(path.resolve(__dirname, '../../server'));
  return found;
}

/** `$ref`s to components resolved in place, so one schema can be read on its own. */
function deref(node: unknown, components: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, components, seen));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref) {
    const name = ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) throw new Error(`recursive schema ${name}`);
    return deref(components[name], components, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v, components, seen)]));
}

describe('the event catalogue', () => {
  it('has a zod schema for every event type the server records', () => {
    const defined = eventDefinitions();
    const produced = producedTypes();
    expect(produced.size).toBeGreaterThan(20);
    for (const type of produced) expect(defined.has(type), `${type} has no schema in the event catalogue`).toBe(true);
    for (const [type, def] of defined) expect(def.data, type).toBeInstanceOf(z.ZodType);
  });

  it('refuses to record an unknown type or a payload of the wrong shape (development and tests)', () => {
    const bus = server.ctx.events as unknown as EventBus<Record<string, object>>;
    const record = (type: string, data: object) => server.ctx.db.transaction((tx) => void bus.record(tx as unknown as Db, { entityId: owner.entityId, type, data }));
    expect(() => record('ticket.exploded', {})).toThrow('ticket.exploded has no schema');
    expect(() => record('mail.failed', { mailId: 'm' })).toThrow(/mail\.failed: data does not match/);
    expect(() => record('webhook.endpoint_disabled', { subscription: { id: crypto.randomUUID(), url: 'https://x' }, reason: 'r', extra: 1 })).toThrow(/Unrecognized key/);
  });

  it('types record by event type: a wrong payload does not compile', () => {
    // Checked by tsc, never run: each line below must stay a type error.
    const never = (bus: EventBus, tx: Db) => {
      // @ts-expect-error a field of another event type
      bus.record(tx, { entityId: 'e', type: 'mail.failed', data: { mailId: 'm', to: 't', subject: 's', ref: {}, via: 'smtp' } });
      // @ts-expect-error not in the catalogue
      bus.record(tx, { entityId: 'e', type: 'ticket.exploded', data: {} });
    };
    expect(typeof never).toBe('function');
  });
});

describe('the OpenAPI webhooks section', () => {
  it('lists every event type of the catalogue, and the test event, with its envelope and signature headers', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const types = (await owner.get(`${W}/event-types`)).body.map((e: { type: string }) => e.type);
    expect(types.sort()).toEqual(eventCatalogue().map((e) => e.type).sort());
    expect(Object.keys(doc.webhooks).sort()).toEqual([...types, 'webhook.test'].sort());
    for (const type of Object.keys(doc.webhooks)) {
      const op = doc.webhooks[type].post;
      const body = deref(op.requestBody.content['application/json'].schema, doc.components.schemas) as { properties: Record<string, { const?: string }>; required: string[] };
      expect(body.properties.type.const, type).toBe(type);
      expect(body.required.sort()).toEqual(['data', 'timestamp', 'type']);
      expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['header:webhook-id', 'header:webhook-signature', 'header:webhook-timestamp']);
    }
    // Payloads reuse the API's own schemas: a ticket in a webhook is the Ticket of the routes.
    expect(doc.components.schemas.TicketCreatedWebhook.properties.data.properties.ticket).toEqual({ $ref: '#/components/schemas/Ticket' });
  });

  it('delivers bodies that validate against the schema published for their type', async () => {
    const sub = (await owner.post(W, { url: receiver.url, events: ['*'] })).body;
    clock.advance(1000);
    const t = (await owner.post('/api/helpdesk/tickets', { subject: 'Contract', contactEmail: 'c@example.com' })).body;
    await owner.patch(`/api/helpdesk/tickets/${t.id}`, { status: 'open', priority: 'high', assignedTo: owner.user.id });
    await owner.post(`/api/helpdesk/tickets/${t.id}/messages`, { body: 'A note', isInternal: true });
    await owner.post('/api/notifications', { title: 'Hello' });
    await postEvent(owner, invoice());
    expect((await uploadPdf(owner)).status).toBe(201);
    const { requestId } = await draftRequest(owner);
    expect((await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'cancel' })).status).toBe(200);
    expect((await owner.post(`${W}/${sub.id}/test`, {})).status).toBeLessThan(300);
    await pump();

    const doc = (await server.anon.get('/api/openapi.json')).body;
    const hook = new Webhook(sub.secret);
    const seen = new Set<string>();
    for (const r of receiver.received) {
      hook.verify(r.body, r.headers);
      const body = JSON.parse(r.body) as { type: string };
      const published = doc.webhooks[body.type]?.post.requestBody.content['application/json'].schema;
      expect(published, `${body.type} is not published`).toBeDefined();
      const schema = z.fromJSONSchema(deref(published, doc.components.schemas) as never);
      const checked = schema.safeParse(body);
      expect(checked.success, `${body.type}: ${checked.success ? '' : z.prettifyError(checked.error)}`).toBe(true);
      seen.add(body.type);
    }
    expect([...seen].sort()).toEqual(
      ['document.uploaded', 'ledger.event.posted', 'notification.created', 'signature_request.cancelled', 'ticket.assigned', 'ticket.created', 'ticket.message.created', 'ticket.status_changed', 'ticket.updated', 'webhook.test'].sort(),
    );
  });
});
