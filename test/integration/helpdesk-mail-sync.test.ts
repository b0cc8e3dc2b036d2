// The e-mail channel on two devices of one entity: the thread, its files and delivery states
// travel; the IMAP connection and its sealed password stay on the device that holds them.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { ingestEmail } from '../../server/helpdesk/mail-in.js';
import { rfc822, SUPPORT } from './helpdesk-mail-helpers.js';

describe('helpdesk e-mail across devices', () => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await startSyncPair('Mail Sync Co');
  });
  afterAll(() => pair?.close());

  it('syncs the support address, e-mailed messages, their files and deliveries, but not the IMAP settings', async () => {
    const { a, onA, onB } = pair;
    const put = await onA.put('/api/helpdesk/mailbox', { address: SUPPORT, displayName: 'Acme Support', signature: 'Acme', imap: { host: 'imap.acme.test', port: 993, tls: true, user: SUPPORT, password: 'device-a-secret' } });
    expect(put.status).toBe(200);
    const file = Buffer.from('%PDF-1.4 invoice copy');
    const raw = await rfc822({ from: 'Ada <ada@customer.test>', subject: 'Invoice question', text: 'Why twice?', attachments: [{ filename: 'invoice.pdf', content: file, contentType: 'application/pdf' }] });
    const taken = await ingestEmail(a.ctx, onA.entityId, raw);
    expect(taken.outcome).toBe('created');
    const ticketId = (taken as { ticketId: string }).ticketId;
    const reply = await onA.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'Looking into it.' });
    expect(reply.body.delivery).toMatchObject({ state: 'queued' });
    await pair.settle();

    const box = (await onB.get('/api/helpdesk/mailbox')).body;
    expect(box).toMatchObject({ address: SUPPORT, displayName: 'Acme Support', signature: 'Acme', imap: null, incoming: { state: 'off' } });
    const detail = (await onB.get(`/api/helpdesk/tickets/${ticketId}`)).body;
    const customer = detail.messages.find((m: { authorType: string }) => m.authorType === 'customer');
    expect(customer).toMatchObject({ body: 'Why twice?', email: { from: 'ada@customer.test' }, attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', size: file.length }] });
    expect(detail.messages.find((m: { id: string }) => m.id === reply.body.id).delivery).toMatchObject({ state: 'queued', to: 'ada@customer.test' });
    // The file came down with the row.
    expect(pair.b.ctx.blobs.has(crypto.createHash('sha256').update(file).digest('hex'))).toBe(true);
    const viaB = await onB.get(`/api/helpdesk/tickets/${ticketId}/attachments/${customer.attachments[0].id}`);
    expect(viaB.status).toBe(200);
    expect(viaB.body).toBe(file.toString('utf8'));

    // A reply written on B goes out from B with the synced address; the thread's Message-IDs came along.
    const fromB = await onB.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'Found it: a double charge.' });
    expect(fromB.body.delivery).toMatchObject({ state: 'queued', to: 'ada@customer.test' });
    const queued = pair.b.ctx.sqlite.prepare("select headers from mail_outbox where json_extract(ref, '$.messageId') = ?").get(fromB.body.id) as { headers: string };
    expect(JSON.parse(queued.headers)).toMatchObject({ from: { address: SUPPORT }, inReplyTo: customer.email.messageId });
  });
});
