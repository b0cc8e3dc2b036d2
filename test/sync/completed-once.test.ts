// Two owner devices of one business both complete a request signed on the hosted page (each seals
// it before it learns of the other's completion): the sender gets ONE "Completed" mail, the signer
// one signed copy. Both devices have no SMTP: their mail goes through the hosted instance, which
// sends one mail per purpose and recipient.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSignedRequests } from '../../server/documents/complete-signed.js';
import { sendDueMail } from '../../server/mail/mail.js';
import { freePort } from '../helpers/net.js';
import { makeClient } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { startSyncPair, type SyncPair } from '../helpers/sync-pair.js';
import { draftRequest, PNG_DATA_URL } from '../integration/documents-helpers.js';

let smtp: TestSmtp;
let pair: SyncPair;
let publicUrl: string;
beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  pair = await startSyncPair('Two Desks Ltd', undefined, { smtp, hosted: { port, publicUrl, mailFrom: 'Bureau <mail@bureau.test>' } });
}, 120_000);
afterAll(async () => {
  await pair?.close();
  await smtp?.stop();
});

const subjectsTo = async (email: string) => (await Promise.all(smtp.received.filter((m) => m.to.includes(email)).map((m) => simpleParser(m.raw)))).map((m) => m.subject ?? '');

describe('one "Completed" mail per person across devices', () => {
  it('both owner devices complete; the sender and the signer each get one', async () => {
    const { onA, a, b } = pair;
    const { requestId } = await draftRequest(onA, { signers: [{ name: 'Sam Signer', email: 'sam@example.com' }] });
    expect((await onA.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
    await pair.settle();
    await sendDueMail(a.ctx);
    await pair.hosted.ctx.mail!.sendDue();
    const invite = (await Promise.all(smtp.received.filter((m) => m.to.includes('sam@example.com')).map((m) => simpleParser(m.raw))))[0];
    const token = new RegExp(`${publicUrl}/sign/([A-Za-z0-9_-]+)`).exec(invite?.text ?? '')?.[1];
    expect(token, 'an invitation with a hosted link').toBeTruthy();

    const signer = makeClient(publicUrl);
    const page = await signer.get(`/api/sign/${token}`);
    const fields = page.body.fields.filter((f: { type: string }) => f.type === 'signature').map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
    expect((await signer.post(`/api/sign/${token}`, { action: 'sign', fields })).status).toBe(200);

    // Both devices pull the signature, then both complete before either pushes: one completion wins, the other is undone.
    await pair.run(onA);
    await pair.run(pair.onB);
    expect(await completeSignedRequests(a.ctx)).toBe(1);
    expect(await completeSignedRequests(b.ctx)).toBe(1);
    await pair.settle();
    await pair.settle();
    for (let i = 0; i < 3; i++) {
      await sendDueMail(a.ctx);
      await sendDueMail(b.ctx);
      await pair.settle();
      await pair.hosted.ctx.mail!.sendDue();
    }
    expect((await subjectsTo(onA.email)).filter((s) => s.startsWith('Completed'))).toEqual(['Completed: "Services agreement"']);
    expect((await subjectsTo('sam@example.com')).filter((s) => s.startsWith('Completed'))).toEqual(['Completed: "Services agreement"']);
    const outboxes = [...(await onA.get('/api/mail/outbox')).body, ...(await pair.onB.get('/api/mail/outbox')).body] as { ref: { kind: string }; status: string; via: string | null; dropReason: string | null }[];
    const completedNotices = outboxes.filter((m) => m.ref.kind === 'owner_completed');
    expect(completedNotices.map((m) => m.status).sort()).toEqual(['dropped', 'sent']);
    expect(completedNotices.find((m) => m.status === 'dropped')?.dropReason).toMatch(/already sent/);
  }, 120_000);
});
