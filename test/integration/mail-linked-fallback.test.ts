// A linked device whose hosted instance has no SMTP server (it answers 503): the device's own SMTP
// server sends instead; without one, the mail waits and the status says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueMail } from '../../server/mail/mail.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { draftRequest } from './documents-helpers.js';

let smtp: TestSmtp;
let pair: SyncPair;
beforeAll(async () => {
  smtp = await startSmtp();
  pair = await startSyncPair('No Hosted SMTP Ltd');
}, 120_000);
afterAll(async () => {
  await pair?.close();
  await smtp?.stop();
});

describe('linked, the hosted instance without SMTP', () => {
  it('mail waits with the hosted answer as its reason, then goes through the SMTP server set on the device', async () => {
    const { onA, a } = pair;
    const { requestId } = await draftRequest(onA, { signers: [{ name: 'Ada', email: 'ada@example.com' }] });
    expect((await onA.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
    await pair.settle();
    await sendDueMail(a.ctx);
    const waiting = (await onA.get('/api/mail/status')).body;
    expect(waiting).toMatchObject({ route: 'hosted', linked: true, queued: 1 });
    expect(waiting.waitingReason).toMatch(/no SMTP server/);

    expect((await onA.put('/api/mail/smtp', { host: '127.0.0.1', port: smtp.port, security: 'none', fromAddress: 'office@acme.test' })).status).toBe(200);
    // Retried after its backoff: the test moves the attempt to now.
    a.ctx.sqlite.prepare("update mail_outbox set next_attempt_at = '2000-01-01T00:00:00.000Z' where status = 'queued'").run();
    await sendDueMail(a.ctx);
    expect(smtp.received.map((m) => m.to)).toEqual([['ada@example.com']]);
    expect((await onA.get('/api/mail/outbox')).body[0]).toMatchObject({ to: 'ada@example.com', status: 'sent', via: 'smtp' });
  }, 60_000);
});
