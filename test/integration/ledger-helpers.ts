import { makeClient, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { postEvent as postInternal } from '../../server/ledger/post-event.js';

export const invoice = (net = '100.00', tax = '20.00', extra: Record<string, unknown> = {}) => ({
  type: 'invoice_created',
  payload: { invoiceNumber: `INV-${Math.random().toString(36).slice(2, 8)}`, currency: 'USD', netAmount: net, taxAmount: tax },
  ...extra,
});

export async function postEvent(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/api/ledger/events', body);
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Adds a second person to `owner`'s entity with `role` and returns their session client. */
export async function memberClient(server: TestServer, owner: SessionClient, role: 'admin' | 'member' | 'viewer'): Promise<Client> {
  const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email, role, name: `A ${role}` });
  if (added.status !== 201) throw new Error(`add member failed: ${added.status} ${JSON.stringify(added.body)}`);
  const accepted = await server.anon.post('/api/auth/accept-invite', { token: added.body.inviteToken, password: 'correct horse battery staple' });
  if (accepted.status !== 200) throw new Error(`accept invite failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0];
  return makeClient(server.url, { cookie, origin: server.url, 'x-entity-id': owner.entityId });
}

export async function trialBalanceIsZero(c: Client) {
  const tb = await c.get('/api/ledger/trial-balance');
  if (tb.status !== 200) throw new Error(`trial balance failed: ${tb.status}`);
  return tb.body.totals.every((t: { debit: string; credit: string; balance: string }) => t.debit === t.credit && /^0(\.0+)?$/.test(t.balance));
}

/**
 * Records an event of a type Bureau records itself (the wallet's payments and transfers): the API
 * refuses those by hand, so tests record them as the privacy module does.
 */
export function recordInternal(server: TestServer, entityId: string, body: Record<string, unknown>) {
  return postInternal(server.ctx, entityId, body as never, { source: 'privacy' }).event;
}
