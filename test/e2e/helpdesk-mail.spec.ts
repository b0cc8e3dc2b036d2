import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { dovecotMissing, startDovecot, type TestDovecot } from '../helpers/dovecot.js';
import { freePort } from '../helpers/net.js';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';
import { test as base, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';

// The helpdesk e-mail channel through the UI, against real servers: Debian's dovecot holds the
// support mailbox (IMAP) and an in-process SMTP server receives what Bureau sends.

interface Received {
  to: string[];
  raw: string;
}

interface Smtp {
  url: string;
  received: Received[];
}

const test = base.extend<{ smtp: Smtp; dovecot: TestDovecot }>({
  smtp: async ({}, use) => {
    const received: Received[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    await use({ url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, received });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  },
  dovecot: async ({}, use) => {
    const dovecot = await startDovecot();
    await use(dovecot);
    await dovecot.stop();
  },
  // The shared fixture's server, with outgoing mail going to the test SMTP server.
  server: async ({ smtp }, use) => {
    const server: TestServer = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true, smtpUrl: smtp.url, mailFrom: 'Bureau <no-reply@bureau.test>' });
    await use(server);
    await server.close();
  },
});

test.skip(!!dovecotMissing, dovecotMissing ?? '');

/** A header of a raw message (first occurrence, unfolded). */
function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const m = head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'));
  return m ? m[1].trim() : null;
}

/** An e-mail as a customer's mail program sends it; with an attachment it is multipart/mixed. */
function customerMail(m: { from: string; to: string; subject: string; messageId: string; text: string; inReplyTo?: string; html?: string; attachment?: { filename: string; contentType: string; content: string } }): string {
  const head = [`From: ${m.from}`, `To: ${m.to}`, `Subject: ${m.subject}`, `Message-ID: <${m.messageId}>`, `Date: ${new Date().toUTCString()}`, 'MIME-Version: 1.0'];
  if (m.inReplyTo) head.push(`In-Reply-To: <${m.inReplyTo}>`, `References: <${m.inReplyTo}>`);
  const text = ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', m.text];
  if (m.html) {
    const b = 'alt-boundary-1';
    return [...head, `Content-Type: multipart/alternative; boundary="${b}"`, '', `--${b}`, ...text, `--${b}`, 'Content-Type: text/html; charset=utf-8', '', m.html, `--${b}--`, ''].join('\r\n');
  }
  if (!m.attachment) return [...head, ...text, ''].join('\r\n');
  const b = 'mixed-boundary-1';
  const a = m.attachment;
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    ...text,
    `--${b}`,
    `Content-Type: ${a.contentType}; name="${a.filename}"`,
    `Content-Disposition: attachment; filename="${a.filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(a.content).toString('base64'),
    `--${b}--`,
    '',
  ].join('\r\n');
}

/** A delivery status notification (RFC 3464) as a recipient's mail server sends it back. */
function bounceOf(b: { to: string; quotedMessageId: string; recipient: string }): string {
  const x = 'report-boundary-1';
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.com>',
    `To: ${b.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'Message-ID: <bounce-1@mx.example.com>',
    `Date: ${new Date().toUTCString()}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${x}"`,
    '',
    `--${x}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Your message could not be delivered to one or more recipients.',
    `--${x}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.com',
    '',
    `Final-Recipient: rfc822; ${b.recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    `Diagnostic-Code: smtp; 550 5.1.1 <${b.recipient}>: mailbox unavailable`,
    `--${x}`,
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: <${b.quotedMessageId}>`,
    `To: ${b.recipient}`,
    `--${x}--`,
    '',
  ].join('\r\n');
}

test('helpdesk e-mail settings: test the IMAP connection, save, see it connect; read-only for a viewer', async ({ server, dovecot, browser, signedIn: { page, client } }) => {
  const support = dovecot.addUser('support@shop.test');
  await page.goto(`${server.url}/settings/helpdesk-email`);
  await expect(page.getByRole('link', { name: 'Helpdesk e-mail' })).toHaveAttribute('aria-current', 'page');
  const incoming = page.getByTestId('incoming-status');
  await expect(incoming).toHaveAttribute('data-state', 'off');
  await expect(incoming).toContainText('No IMAP mailbox is set up');
  await expect(page.getByTestId('outgoing-status')).toContainText('SMTP configured');

  const form = page.getByRole('form', { name: 'Helpdesk mailbox' });
  await form.getByLabel('Support address', { exact: true }).fill(support.user);
  await form.getByLabel('Display name').fill('Shop Support');
  await form.getByLabel('Signature').fill('Kind regards,\nThe Shop team');
  await form.getByLabel(/Fetch e-mail sent to the support address/).check();
  await form.getByLabel('IMAP host').fill(dovecot.host);
  await form.getByLabel('IMAP port').fill(String(dovecot.port));
  await form.getByLabel('IMAP user').fill(support.user);
  await form.getByLabel('IMAP password').fill('not the password');
  await form.getByLabel(/Use TLS/).uncheck();

  // Each failure is named next to the button.
  const result = page.locator('#imap-test-result');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(result).toContainText('Sign-in failed: The server refused the user name or password');
  const closed = await freePort();
  await form.getByLabel('IMAP port').fill(String(closed));
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(result).toContainText(`Connection refused: 127.0.0.1:${closed} refused the connection.`);
  await form.getByLabel('IMAP port').fill(String(dovecot.port));
  await form.getByLabel('IMAP password').fill(support.password);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(result).toContainText('Connected. INBOX holds 0 messages.');

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  await expect(form.getByRole('group', { name: 'IMAP password' })).toContainText('Password saved');
  await expect(form.locator('input[type="password"]')).toHaveCount(0);
  // The status refreshes by itself: the server connects and waits for mail.
  await expect(incoming).toHaveAttribute('data-state', /idle|polling/, { timeout: 20_000 });
  await expect(incoming).toContainText('Connected');
  await expect(incoming).not.toContainText('Last checked: never');
  await screenshot(page, 'helpdesk-mail-settings');
  await expectAccessible(page, 'helpdesk e-mail settings');

  // After a reload everything is still there; the password is never sent back.
  await page.reload();
  await expect(form.getByLabel('Support address', { exact: true })).toHaveValue(support.user);
  await expect(form.getByLabel('Signature')).toHaveValue('Kind regards,\nThe Shop team');
  await expect(form.getByLabel('IMAP port')).toHaveValue(String(dovecot.port));
  await expect(form.getByLabel(/Use TLS/)).not.toBeChecked();
  const stored = await client.get('/api/helpdesk/mailbox');
  expect(JSON.stringify(stored.body)).not.toContain(support.password);
  expect(stored.body.imap).toMatchObject({ host: dovecot.host, port: dovecot.port, tls: false, user: support.user, passwordSet: true });

  // "Test connection" with the saved password (replacing it is a choice, not a requirement).
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(result).toContainText('Connected.');

  // A viewer sees the set-up, cannot change it.
  const viewer = await server.signup({ name: 'Vera Viewer' });
  expect((await client.post(`/api/entities/${client.entityId}/members`, { email: viewer.email, role: 'viewer' })).status).toBe(201);
  const context = await browser.newContext();
  try {
    const [name, value] = viewer.cookie.split('=');
    await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
    await context.addInitScript((id) => localStorage.setItem('bureau.entityId', id), client.entityId);
    const vpage = await context.newPage();
    await vpage.goto(`${server.url}/settings/helpdesk-email`);
    const vform = vpage.getByRole('form', { name: 'Helpdesk mailbox' });
    await expect(vpage.getByText('Only owners and admins can change the helpdesk mailbox')).toBeVisible();
    await expect(vform.getByLabel('Support address', { exact: true })).toHaveValue(support.user);
    await expect(vform.getByLabel('Support address', { exact: true })).toBeDisabled();
    await expect(vform.getByRole('button')).toHaveCount(0);
    await vpage.close();
  } finally {
    await context.close();
  }

  // Turning incoming mail off keeps the address (replies are still e-mailed).
  page.once('dialog', (d) => void d.accept());
  await form.getByRole('button', { name: 'Turn off incoming mail' }).click();
  await expect(form.getByText('Incoming mail is off.')).toBeVisible();
  await expect(incoming).toHaveAttribute('data-state', 'off');
  await expect(form.getByLabel('Support address', { exact: true })).toHaveValue(support.user);
  expect((await client.get('/api/helpdesk/mailbox')).body.imap).toBeNull();
});

test('a customer e-mails support, the ticket appears; the reply is e-mailed threaded; the customer answer lands on the same ticket', async ({ server, smtp, dovecot, signedIn: { page, client } }) => {
  const support = dovecot.addUser('help@shop.test');
  const put = await client.put('/api/helpdesk/mailbox', {
    address: support.user,
    displayName: 'Shop Help',
    signature: '— The Shop',
    imap: { host: dovecot.host, port: dovecot.port, tls: false, user: support.user, password: support.password },
  });
  expect(put.status).toBe(200);

  // The customer writes in, with a file; and a second e-mail with HTML that tries to run script.
  await dovecot.deliver(
    support.user,
    customerMail({
      from: 'Carla Customer <carla@example.com>',
      to: support.user,
      subject: 'Invoice 2024-117 is wrong',
      messageId: 'first.carla@example.com',
      text: 'Hello,\nthe VAT on invoice 2024-117 is 19% but should be 7%.\nCarla',
      attachment: { filename: 'invoice-notes.txt', contentType: 'text/plain', content: 'Line 3: VAT 19% -> 7%\n'.repeat(100) },
    }),
  );

  await page.getByRole('link', { name: 'Helpdesk' }).click();
  const row = page.getByRole('row', { name: /Invoice 2024-117 is wrong/ });
  // The server fetches the mailbox in the background; the list shows the ticket once it is there.
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText('Carla Customer');
  await row.getByRole('link').click();

  await expect(page.getByRole('heading', { name: 'Invoice 2024-117 is wrong' })).toBeVisible();
  await expect(page.getByText('via E-mail', { exact: true })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  const first = timeline.locator('[data-kind="customer"]').first();
  await expect(first).toContainText('the VAT on invoice 2024-117 is 19% but should be 7%.');
  await expect(first).toContainText('E-mail');
  await expect(first).toContainText('from carla@example.com');
  const attachments = first.getByRole('list', { name: 'Attachments' });
  await expect(attachments).toContainText('invoice-notes.txt');
  await expect(attachments).toContainText('2 KB');
  const downloading = page.waitForEvent('download');
  await attachments.getByRole('link', { name: 'invoice-notes.txt' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('invoice-notes.txt');
  const file = await download.path();
  expect((await import('node:fs')).readFileSync(file, 'utf8')).toContain('Line 3: VAT 19% -> 7%');

  // A priority change is in the timeline too.
  await page.getByLabel('Priority').selectOption('high');
  await expect(timeline.getByText(/Priority changed from normal to high/i)).toBeVisible();

  // The reply box says where the reply goes.
  await expect(page.getByTestId('reply-hint')).toHaveText(`Your reply will be e-mailed to carla@example.com from ${support.user}. Internal notes are not.`);
  await page.getByLabel('Internal note').check();
  await expect(page.getByTestId('reply-hint')).toContainText('never e-mailed');
  await page.getByLabel('Internal note (members only)').fill('Check with accounting first.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.locator('[data-kind="note"]').getByText('Check with accounting first.')).toBeVisible();
  await expect(page.locator('[data-kind="note"] .hd-delivery')).toHaveCount(0);

  await page.getByLabel('Internal note', { exact: true }).uncheck();
  await page.getByLabel('Reply to the customer').fill('Hi Carla, you are right: a corrected invoice follows today.');
  await page.getByRole('button', { name: 'Send reply' }).click();
  const reply = timeline.locator('[data-kind="agent"]').filter({ hasText: 'a corrected invoice follows today' });
  await expect(reply.locator('.hd-delivery')).toBeVisible();
  // Queued first, then sent by the outbox loop; the page refreshes by itself while it waits.
  await expect(reply.locator('.hd-delivery')).toHaveAttribute('data-delivery', 'sent', { timeout: 30_000 });
  await expect(reply).toContainText(/Sent .*E-mailed to carla@example.com\./);
  await screenshot(page, 'helpdesk-mail-ticket');
  await expectAccessible(page, 'e-mail ticket');

  // What the customer got: the ticket number in the subject, threaded on her e-mail, the signature.
  const ticketNumber = (await page.locator('.page-subtitle .mono').textContent())!.trim();
  await expect.poll(() => smtp.received.filter((m) => m.to.includes('carla@example.com')).length).toBe(1);
  const sent = smtp.received.find((m) => m.to.includes('carla@example.com'))!.raw;
  expect(header(sent, 'Subject')).toContain(`[#${ticketNumber}]`);
  expect(header(sent, 'In-Reply-To')).toBe('<first.carla@example.com>');
  expect(header(sent, 'From')).toContain(support.user);
  expect(sent).toContain('The Shop');
  const ourId = header(sent, 'Message-ID')!.replace(/[<>]/g, '');

  // Her provider bounces it: the reply shows why it failed, and "Try again" sends it once more.
  await dovecot.deliver(support.user, bounceOf({ to: support.user, quotedMessageId: ourId, recipient: 'carla@example.com' }));
  const delivery = reply.locator('.hd-delivery');
  await expect(async () => {
    await page.reload();
    await expect(delivery).toHaveAttribute('data-delivery', 'failed', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(delivery).toContainText('Failed');
  await expect(delivery).toContainText('E-mail to carla@example.com was not delivered: The recipient\'s mail server returned the message: 550 5.1.1 <carla@example.com>: mailbox unavailable');
  await screenshot(page, 'helpdesk-mail-failed');
  await expectAccessible(page, 'failed delivery');
  await delivery.getByRole('button', { name: 'Try again' }).click();
  await expect(delivery).toHaveAttribute('data-delivery', /queued|sent/);
  await expect(delivery).toHaveAttribute('data-delivery', 'sent', { timeout: 30_000 });
  await expect(delivery.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect.poll(() => smtp.received.filter((m) => m.to.includes('carla@example.com')).length).toBe(2);
  const resent = smtp.received.filter((m) => m.to.includes('carla@example.com'))[1].raw;
  expect(header(resent, 'Message-ID')).toBe(`<${ourId}>`);
  // The bounce made no ticket.
  expect((await client.get('/api/helpdesk/tickets')).body).toHaveLength(1);

  // She answers her mail program's way: In-Reply-To our Message-ID. It lands on this ticket.
  await dovecot.deliver(
    support.user,
    customerMail({
      from: 'Carla Customer <carla@example.com>',
      to: support.user,
      subject: `Re: [#${ticketNumber}] Invoice 2024-117 is wrong`,
      messageId: 'second.carla@example.com',
      inReplyTo: ourId,
      text: 'Thank you, got it!',
      html: '<p>Thank you, <b>got it</b>!</p><script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">',
    }),
  );
  await expect(async () => {
    await page.reload();
    await expect(timeline.locator('[data-kind="customer"]')).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const answer = timeline.locator('[data-kind="customer"]').nth(1);
  await expect(answer).toContainText('Thank you, got it!');
  await expect(answer).toContainText('from carla@example.com');
  // Bodies are text: no markup of the customer's is rendered, nothing of it runs.
  await expect(answer.locator('b, script, img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  await expect(page.getByLabel('Status')).toHaveValue('open');

  // One ticket for the whole thread; the list finds it by the customer's e-mail address.
  await page.getByRole('link', { name: '← All tickets' }).click();
  await page.getByLabel('Search contact').fill('carla@example');
  await expect(page).toHaveURL(/contact=carla%40example/);
  await expect(page.getByRole('row', { name: /Invoice 2024-117 is wrong/ })).toHaveCount(1);
  const all = await makeClient(server.url, { cookie: client.cookie, 'x-entity-id': client.entityId }).get('/api/helpdesk/tickets');
  expect(all.body).toHaveLength(1);
});
