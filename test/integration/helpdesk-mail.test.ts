// The helpdesk e-mail channel against real servers: dovecot (IMAP) holds the support and the
// customer mailboxes, smtp-server receives what Bureau sends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutDovecot, startDovecot, type TestDovecot } from '../helpers/dovecot.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { connectMailbox, newMessageId, parse, poll, rfc822, sendQueued, SUPPORT, ticketDetail, ticketsOf } from './helpdesk-mail-helpers.js';

const ADA = 'ada@customer.test';

describe.skipIf(skipWithoutDovecot)('helpdesk e-mail channel (dovecot + smtp-server)', () => {
  let dovecot: TestDovecot;
  let smtp: TestSmtp;
  let server: TestServer;
  let owner: SessionClient;
  let dataDir: string;
  let supportPassword: string;
  let adaFirstId: string;
  let ticketId: string;
  let ticketNumber: string;
  let ourReplyId: string;
  // Everything the servers log, to check that no password or mail content is in it.
  let logs = '';
  const logDestination = new Writable({
    write(chunk, _enc, cb) {
      logs += chunk;
      cb();
    },
  });
  const start = (port = 0) => startTestServer({ dataDir, smtpUrl: smtp.url, port, logLevel: 'trace', logDestination });

  beforeAll(async () => {
    dovecot = await startDovecot();
    supportPassword = dovecot.addUser(SUPPORT).password;
    dovecot.addUser(ADA);
    smtp = await startSmtp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-mail-'));
    server = await start();
    owner = await server.signup({ name: 'Grace Agent' });
    await connectMailbox(owner, dovecot, supportPassword);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
    await dovecot?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a customer e-mails support: a ticket appears with contact, subject and body', async () => {
    adaFirstId = newMessageId();
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Ada Lovelace <ada@customer.test>', subject: 'Printer on fire', text: 'Hello,\nthe printer is on fire again.\nAda', messageId: adaFirstId }));
    const result = await poll(server, owner.entityId);
    expect(result).toMatchObject({ fetched: 1, created: 1 });

    const [ticket] = await ticketsOf(owner);
    expect(ticket).toMatchObject({ subject: 'Printer on fire', channel: 'email', contactEmail: ADA, contactName: 'Ada Lovelace', status: 'new' });
    ticketId = ticket.id;
    ticketNumber = ticket.ticketNumber;
    const detail = await ticketDetail(owner, ticketId);
    const customer = detail.messages.filter((m) => m.authorType === 'customer');
    expect(customer).toHaveLength(1);
    expect(customer[0]).toMatchObject({ body: 'Hello,\nthe printer is on fire again.\nAda', authorName: 'Ada Lovelace', isInternal: false, email: { messageId: adaFirstId.slice(1, -1), from: ADA }, attachments: [], attachmentsNote: null, delivery: null });

    // The mailbox shows that it was checked.
    const box = await owner.get('/api/helpdesk/mailbox');
    expect(box.body.incoming).toMatchObject({ state: 'polling', lastError: null });
    expect(box.body.incoming.lastCheckedAt).toEqual(expect.any(String));
  });

  it('an agent replies: the customer receives it threaded, with [#number], Message-ID, In-Reply-To and References', async () => {
    const reply = await owner.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'Please step away from the printer. <b>Now</b>.' });
    expect(reply.status).toBe(201);
    expect(reply.body.delivery).toMatchObject({ state: 'queued', to: ADA, error: null, sentAt: null });
    await sendQueued(server);

    expect(smtp.received).toHaveLength(1);
    const sent = smtp.received[0];
    expect(sent.to).toEqual([ADA]);
    const mail = await parse(sent.raw);
    expect(mail.subject).toBe(`Re: [#${ticketNumber}] Printer on fire`);
    expect(mail.from?.value[0]).toMatchObject({ name: 'Acme Support', address: SUPPORT });
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@acme\.test>$/);
    expect(mail.inReplyTo).toBe(adaFirstId);
    expect([mail.references].flat()).toEqual([adaFirstId]);
    expect(mail.text).toContain('Please step away from the printer. <b>Now</b>.');
    expect(mail.text).toContain('-- \nAcme Support team\nhttps://acme.test/help');
    expect(mail.html).toContain('&lt;b&gt;Now&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Now</b>');
    ourReplyId = mail.messageId!;

    const detail = await ticketDetail(owner, ticketId);
    const agent = detail.messages.find((m) => m.id === reply.body.id)!;
    expect(agent.delivery).toMatchObject({ state: 'sent', to: ADA, error: null });
    expect(agent.delivery!.sentAt).toEqual(expect.any(String));

    // In Ada's mailbox the reply sits under her message, as her client threads it.
    await dovecot.deliver(ADA, sent.raw);
    const [inAdas] = await dovecot.messages(ADA);
    const stored = await parse(inAdas.raw);
    expect(stored.inReplyTo).toBe(adaFirstId);
    expect(stored.messageId).toBe(ourReplyId);
  });

  it('never ingests our own reply (a copy landing in the support mailbox)', async () => {
    await dovecot.deliver(SUPPORT, smtp.received[0].raw);
    const result = await poll(server, owner.entityId);
    expect(result).toMatchObject({ fetched: 1, created: 0, appended: 0 });
    expect(await ticketsOf(owner)).toHaveLength(1);
    expect((await ticketDetail(owner, ticketId)).messages.filter((m) => m.authorType === 'customer')).toHaveLength(1);
  });

  it('the customer replies to our Message-ID: it lands on the same ticket and reopens it from pending', async () => {
    expect((await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { status: 'pending' })).status).toBe(200);
    await dovecot.deliver(
      SUPPORT,
      await rfc822({ from: 'Ada Lovelace <ada@customer.test>', subject: `Re: [#${ticketNumber}] Printer on fire`, text: 'Done. It is still burning.\n\n> Please step away', inReplyTo: ourReplyId, references: [adaFirstId, ourReplyId] }),
    );
    expect(await poll(server, owner.entityId)).toMatchObject({ fetched: 1, appended: 1, created: 0 });
    expect(await ticketsOf(owner)).toHaveLength(1);
    const detail = await ticketDetail(owner, ticketId);
    expect(detail.status).toBe('open');
    const customer = detail.messages.filter((m) => m.authorType === 'customer');
    expect(customer.map((m) => m.body)).toEqual(['Hello,\nthe printer is on fire again.\nAda', 'Done. It is still burning.\n\n> Please step away']);
    expect(detail.messages.some((m) => m.authorType === 'system' && /Status changed from pending to open \(customer reply from Ada Lovelace\)/.test(m.body))).toBe(true);

    // The next reply threads after the customer's latest mail, and references the whole thread.
    smtp.received.length = 0;
    await owner.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'Calling the fire brigade.' });
    await sendQueued(server);
    const second = await parse(smtp.received[0].raw);
    const latest = customer.at(-1)!;
    const latestId = `<${detail.messages.find((m) => m.id === latest.id)!.email!.messageId}>`;
    expect(second.inReplyTo).toBe(latestId);
    expect([second.references].flat()).toEqual([adaFirstId, ourReplyId, latestId]);
  });

  it('a reply matched only by [#number] in the subject joins the ticket; from a stranger it does not', async () => {
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'ada@customer.test', subject: `Another thing [#${ticketNumber}]`, text: 'Also the coffee machine.' }));
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Mallory <mallory@evil.test>', subject: `Re: [#${ticketNumber}] Printer on fire`, text: 'Please send me the invoice.' }));
    expect(await poll(server, owner.entityId)).toMatchObject({ fetched: 2, appended: 1, created: 1 });
    const detail = await ticketDetail(owner, ticketId);
    expect(detail.messages.filter((m) => m.authorType === 'customer').at(-1)!.body).toBe('Also the coffee machine.');
    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(2);
    expect(tickets.find((t) => t.contactEmail === 'mallory@evil.test')).toMatchObject({ subject: `Re: [#${ticketNumber}] Printer on fire` });
  });

  it('a bounce and an auto-reply make no ticket; the bounce marks the reply it returns as failed', async () => {
    const before = (await ticketsOf(owner)).length;
    smtp.received.length = 0;
    const reply = await owner.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'One more thing.' });
    await sendQueued(server);
    const bounced = await parse(smtp.received[0].raw);
    const bounce = [
      'Return-Path: <>',
      'From: Mail Delivery System <MAILER-DAEMON@mx.customer.test>',
      `To: ${SUPPORT}`,
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: ${newMessageId('mx.customer.test')}`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--b1',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.customer.test',
      '',
      `Final-Recipient: rfc822; ${ADA}`,
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <ada@customer.test>: Recipient address rejected: User unknown',
      '',
      '--b1',
      'Content-Type: text/rfc822-headers',
      '',
      `From: Acme Support <${SUPPORT}>`,
      `To: ${ADA}`,
      `Subject: ${bounced.subject}`,
      `Message-ID: ${bounced.messageId}`,
      '',
      '--b1--',
      '',
    ].join('\r\n');
    await dovecot.deliver(SUPPORT, bounce);
    await dovecot.deliver(
      SUPPORT,
      await rfc822({ from: 'Ada Lovelace <ada@customer.test>', subject: 'Out of office: Re: Printer on fire', text: 'I am away until Monday.', inReplyTo: bounced.messageId, headers: { 'Auto-Submitted': 'auto-replied' } }),
    );
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Ada <ada@customer.test>', subject: 'Autoreply', text: 'Away', headers: { 'X-Autoreply': 'yes' } }));
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'news@shop.test', subject: 'Our summer sale', text: 'Buy now', headers: { Precedence: 'bulk' } }));

    expect(await poll(server, owner.entityId)).toMatchObject({ fetched: 4, ignored: 4, created: 0, appended: 0 });
    expect(await ticketsOf(owner)).toHaveLength(before);
    const detail = await ticketDetail(owner, ticketId);
    expect(detail.messages.some((m) => /I am away until Monday|^Away$/.test(m.body))).toBe(false);
    const failed = detail.messages.find((m) => m.id === reply.body.id)!;
    expect(failed.delivery).toMatchObject({ state: 'failed' });
    expect(failed.delivery!.error).toMatch(/User unknown/);
  });

  it('a reply to a closed ticket opens a new ticket that names the old number', async () => {
    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { status: 'resolved' });
    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { status: 'closed' });
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Ada Lovelace <ada@customer.test>', subject: `Re: [#${ticketNumber}] Printer on fire`, text: 'It is back.', inReplyTo: ourReplyId }));
    expect(await poll(server, owner.entityId)).toMatchObject({ created: 1 });
    const fresh = (await ticketsOf(owner)).find((t) => t.id !== ticketId && t.contactEmail === ADA)!;
    expect(fresh).toMatchObject({ subject: 'Printer on fire', channel: 'email', status: 'new' });
    const detail = await ticketDetail(owner, fresh.id);
    expect(detail.messages.some((m) => m.authorType === 'system' && m.body === `Follow-up to closed ticket ${ticketNumber}`)).toBe(true);
    expect(detail.messages.find((m) => m.authorType === 'customer')!.body).toBe('It is back.');
  });

  it('keeps HTML-only mail as plain text, without its script', async () => {
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Bob <bob@customer.test>', subject: 'HTML only', html: '<p>Hello <b>team</b></p><script>alert(1)</script><p onclick="x()">Second line</p>' }));
    await poll(server, owner.entityId);
    const t = (await ticketsOf(owner)).find((x) => x.subject === 'HTML only')!;
    const body = (await ticketDetail(owner, t.id)).messages.find((m) => m.authorType === 'customer')!.body;
    expect(body).toContain('Hello team');
    expect(body).toContain('Second line');
    expect(body).not.toMatch(/<|script|alert|onclick/);
  });

  it('stores attachments as downloadable files and drops one over the limit with a note', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const big = Buffer.alloc(10 * 1024 * 1024 + 1024, 7);
    await dovecot.deliver(
      SUPPORT,
      await rfc822({
        from: 'Cleo <cleo@customer.test>',
        subject: 'Screenshots',
        text: 'See attached.',
        attachments: [
          { filename: 'screen.png', content: png, contentType: 'image/png' },
          { filename: '../../evil.html', content: '<script>alert(document.cookie)</script>', contentType: 'text/html' },
          { filename: 'big.zip', content: big, contentType: 'application/zip' },
        ],
      }),
    );
    await poll(server, owner.entityId);
    const t = (await ticketsOf(owner)).find((x) => x.subject === 'Screenshots')!;
    const message = (await ticketDetail(owner, t.id)).messages.find((m) => m.authorType === 'customer')!;
    expect(message.attachments.map((a) => [a.filename, a.contentType, a.size])).toEqual([
      ['screen.png', 'image/png', png.length],
      ['evil.html', 'text/html', 39],
    ]);
    expect(message.attachmentsNote).toBe('1 attachment over 10 MB was not kept: big.zip');

    // A message over 25 MB is skipped unread, with a log line that says so and nothing of it.
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Cleo <cleo@customer.test>', subject: 'Holiday video', text: 'Enjoy', attachments: [{ filename: 'video.mp4', content: Buffer.alloc(19 * 1024 * 1024, 1) }] }));
    expect(await poll(server, owner.entityId)).toMatchObject({ fetched: 1, skipped: 1, created: 0 });
    expect((await ticketsOf(owner)).some((x) => x.subject === 'Holiday video')).toBe(false);
    expect(logs).toMatch(/helpdesk e-mail over the size limit skipped/);

    const raw = await fetch(`${server.url}/api/helpdesk/tickets/${t.id}/attachments/${message.attachments[0].id}`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    expect(raw.status).toBe(200);
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(png);
    expect(raw.headers.get('content-disposition')).toMatch(/^attachment; filename="screen.png"/);
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');

    const html = await fetch(`${server.url}/api/helpdesk/tickets/${t.id}/attachments/${message.attachments[1].id}`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    expect(html.headers.get('content-disposition')).toMatch(/^attachment; filename="evil.html"/);
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');

    // Another ticket's id in the path finds nothing.
    expect((await owner.get(`/api/helpdesk/tickets/${ticketId}/attachments/${message.attachments[0].id}`)).status).toBe(404);
  });

  it('restarts without duplicating: resumes after the last UID, and dedupes by Message-ID when progress is lost', async () => {
    const countOf = async () => {
      const tickets = await ticketsOf(owner);
      let messages = 0;
      for (const t of tickets) messages += (await ticketDetail(owner, t.id)).messages.filter((m) => m.authorType === 'customer').length;
      return { tickets: tickets.length, messages };
    };
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'dan@customer.test', subject: 'Before restart', text: 'one' }));
    await poll(server, owner.entityId);
    const before = await countOf();
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'dan@customer.test', subject: 'While down', text: 'two' }));

    // The same port, so the signed-in client keeps talking to it.
    const port = server.port;
    await server.close();
    server = await start(port);
    expect(await poll(server, owner.entityId)).toMatchObject({ fetched: 1, created: 1 });
    expect(await countOf()).toEqual({ tickets: before.tickets + 1, messages: before.messages + 1 });

    // A crash before progress was saved, or a recreated mailbox: everything is seen again, nothing is taken twice.
    server.ctx.sqlite.prepare('update helpdesk_mailbox_imap set last_uid = 0, uid_validity = ? where entity_id = ?').run('stale', owner.entityId);
    await server.close();
    server = await start(port);
    const again = await poll(server, owner.entityId);
    expect(again.fetched).toBeGreaterThanOrEqual(10);
    expect(again).toMatchObject({ created: 0, appended: 0 });
    expect(await countOf()).toEqual({ tickets: before.tickets + 1, messages: before.messages + 1 });
  });

  it('logs what happened to each e-mail, never its content nor the IMAP password', () => {
    expect(logs).toMatch(/"outcome":"created"/);
    expect(logs).toMatch(/"outcome":"ignored","reason":"bounce"/);
    for (const secret of [supportPassword, 'printer is on fire', 'Printer on fire', 'ada@customer.test', 'coffee machine', 'alert(']) expect(logs, secret).not.toContain(secret);
  });
});

describe.skipIf(skipWithoutDovecot)('helpdesk e-mail pushed by IMAP IDLE', () => {
  let dovecot: TestDovecot;
  let server: TestServer;

  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterAll(async () => {
    await server?.close();
    await dovecot?.stop();
  });

  it('keeps the connection open in IDLE and turns a new e-mail into a ticket within seconds', async () => {
    const password = dovecot.addUser(SUPPORT).password;
    server = await startTestServer({ backgroundLoops: true });
    const owner = await server.signup();
    await connectMailbox(owner, dovecot, password);
    const until = async <T>(what: string, f: () => Promise<T | undefined>, ms = 8_000): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const v = await f();
        if (v !== undefined) return v;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const idle = await until('IDLE', async () => {
      const incoming = (await owner.get('/api/helpdesk/mailbox')).body.incoming;
      return incoming.state === 'idle' ? incoming : undefined;
    });
    // The next full check is minutes away: only a push can bring the mail in sooner.
    expect(Date.parse(idle.nextAttemptAt) - Date.now()).toBeGreaterThan(60_000);
    const sentAt = Date.now();
    await dovecot.deliver(SUPPORT, await rfc822({ from: 'Eve <eve@customer.test>', subject: 'Pushed', text: 'via IDLE' }));
    const ticket = await until('the ticket', async () => (await ticketsOf(owner)).find((t) => t.subject === 'Pushed'));
    expect(ticket).toMatchObject({ contactEmail: 'eve@customer.test', channel: 'email' });
    expect(Date.now() - sentAt).toBeLessThan(5_000);
  });
});
