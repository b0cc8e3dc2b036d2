import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePdf } from '../fixtures/pdf.js';

/** What the fuzz acts as, and the real ids it aims at. */
export interface FuzzFixtures {
  entityId: string;
  ownerUserId: string;
  /** Session cookie (`bureau_session=…`) of the owner. */
  cookie: string;
  /** A second session of the owner, spent on POST /api/auth/logout. */
  logoutCookie: string;
  /** API key with every scope, pinned to the entity. */
  apiKey: string;
  /** Real ids by parameter / property name. */
  ids: Record<string, string>;
}

/** A webhook endpoint on 127.0.0.1 that answers 204 at once, so test deliveries are quick. */
export async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
}

interface Client {
  request(method: string, path: string, opts?: { body?: unknown; raw?: BodyInit; headers?: Record<string, string> }): Promise<ApiResponse>;
  post(path: string, body: unknown): Promise<ApiResponse>;
  patch(path: string, body: unknown): Promise<ApiResponse>;
}

/**
 * A JSON client over fetch, like test/helpers/server.ts's makeClient, without importing the
 * server code into the test worker (the server runs in its own process, maybe from another checkout).
 */
function makeClient(baseUrl: string, defaults: Record<string, string> = {}): Client {
  const request: Client['request'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...defaults, ...opts.headers };
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + p, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text, headers: res.headers };
  };
  return { request, post: (p, b) => request('POST', p, { body: b }), patch: (p, b) => request('PATCH', p, { body: b }) };
}

function expectStatus(what: string, res: ApiResponse, ...statuses: number[]): any {
  if (!statuses.includes(res.status)) throw new Error(`fuzz setup: ${what} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

const cookieOf = (res: ApiResponse) => (res.headers.get('set-cookie') ?? '').split(';')[0];

/**
 * Signs up an owner and creates one of everything (ticket, category, folder, PDF document,
 * signature requests, webhook subscription with a delivery, ledger event and account,
 * notification, a second member and API key) so that path parameters can name real rows.
 */
export async function createFixtures(baseUrl: string, sinkUrl: string, scopes: string[]): Promise<FuzzFixtures> {
  const anon = makeClient(baseUrl);
  const email = `fuzz-owner-${Date.now()}@example.com`;
  const password = 'correct horse battery staple';
  const signup = await anon.post('/api/auth/signup', { email, password, name: 'Fuzz Owner', entityName: 'Fuzz Ltd' });
  const created = expectStatus('signup', signup, 201);
  const entityId: string = created.entity.id;
  const ownerUserId: string = created.user.id;
  const cookie = cookieOf(signup);
  const c: Client = makeClient(baseUrl, { cookie, origin: baseUrl, 'x-entity-id': entityId });
  const logoutCookie = cookieOf(await anon.post('/api/auth/login', { email, password }));

  const key = expectStatus('api key', await c.post('/api/settings/api-keys', { name: 'fuzz', scopes }), 201);
  const decoyKey = expectStatus('decoy api key', await c.post('/api/settings/api-keys', { name: 'decoy', scopes: [scopes[0]] }), 201);
  const member = expectStatus('add member', await c.post(`/api/entities/${entityId}/members`, { email: `fuzz-member-${Date.now()}@example.com`, role: 'member', name: 'Decoy Member' }), 201);

  const category = expectStatus('category', await c.post('/api/helpdesk/categories', { name: 'Billing' }), 201);
  const ticket = expectStatus('ticket', await c.post('/api/helpdesk/tickets', { subject: 'Printer on fire', description: 'It is on fire', categoryId: category.id, contactEmail: 'customer@example.com' }), 201);
  expectStatus('ticket message', await c.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'We are on it' }), 201);

  const folder = expectStatus('folder', await c.post('/api/documents/folders', { name: 'Contracts' }), 201);
  const pdf = await makePdf(2);
  const upload = (name: string) => c.request('POST', `/api/documents?name=${encodeURIComponent(name)}&folderId=${folder.id}`, { raw: new Uint8Array(pdf), headers: { 'content-type': 'application/pdf' } });
  const document = expectStatus('upload', await upload('Agreement.pdf'), 201);
  const sentDocument = expectStatus('upload', await upload('Sent.pdf'), 201);

  // A draft request (signers and fields can still change) and a sent one (signing token).
  const draft = expectStatus('draft request', await c.post('/api/documents/signature-requests', { documentId: document.id, title: 'Draft agreement', signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] }), 201);
  const signerId: string = draft.signers[0].id;
  const fieldBody = (sid: string) => ({ fields: [{ signerId: sid, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] });
  const fields = expectStatus('fields', await c.post(`/api/documents/signature-requests/${draft.id}/fields`, fieldBody(signerId)), 201);
  const sent = expectStatus('sent request', await c.post('/api/documents/signature-requests', { documentId: sentDocument.id, title: 'Sent agreement', signers: [{ name: 'Grace Hopper', email: 'grace@example.com' }] }), 201);
  const sentFields = expectStatus('sent fields', await c.post(`/api/documents/signature-requests/${sent.id}/fields`, fieldBody(sent.signers[0].id)), 201);
  expectStatus('send', await c.patch(`/api/documents/signature-requests/${sent.id}`, { action: 'send' }), 200);
  const link = expectStatus('signing link', await c.post(`/api/documents/signature-requests/${sent.id}/signers/${sent.signers[0].id}/signing-link`, {}), 200);

  const subscription = expectStatus('webhook subscription', await c.post('/api/webhook-subscriptions', { url: sinkUrl, events: ['*'] }), 201);
  const delivery = expectStatus('webhook test', await c.post(`/api/webhook-subscriptions/${subscription.id}/test`, {}), 201);

  const event = expectStatus(
    'ledger event',
    await c.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-FUZZ-1', currency: 'USD', netAmount: '100.00', taxAmount: '20.00' } }),
    201,
  );
  const account = expectStatus('ledger account', await c.post('/api/ledger/accounts', { code: '6999', name: 'Fuzz expenses', type: 'expense' }), 201);
  const notification = expectStatus('notification', await c.post('/api/notifications', { title: 'Hello', userId: ownerUserId }), 201);

  return {
    entityId,
    ownerUserId,
    cookie,
    logoutCookie,
    apiKey: key.key,
    ids: {
      entityId,
      // Path `userId` (member routes) names the decoy, so a PATCH or DELETE can never demote or remove the owner.
      userId: member.member.userId,
      assignedTo: ownerUserId,
      keyId: decoyKey.id,
      ticketId: ticket.id,
      categoryId: category.id,
      folderId: folder.id,
      parentId: folder.id,
      documentId: document.id,
      requestId: draft.id,
      signerId,
      // The signer's field of the sent request: what POST /api/sign/{token} names.
      fieldId: sentFields[0].id,
      draftFieldId: fields[0].id,
      token: link.token,
      subscriptionId: subscription.id,
      deliveryId: delivery.id,
      eventId: event.id,
      accountId: account.id,
      notificationId: notification.id,
    },
  };
}
