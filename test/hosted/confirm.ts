// The e-mail confirmation of a new hosted account, for tests: the code is read from the mail the
// hosted instance sent to a test SMTP server, as its owner would read it.
import { simpleParser } from 'mailparser';
import type { TestSmtp } from '../helpers/smtp.js';
import { call, Device, linkInput, type Reply } from './client.js';
import type { Enrolment } from '../../server/sync/protocol.js';

/** The mails `to` received so far, parsed. */
export async function mailsTo(smtp: TestSmtp, to: string) {
  return Promise.all(smtp.received.filter((m) => m.to.includes(to)).map((m) => simpleParser(m.raw)));
}

/** Waits for the `nth` (1-based) mail to `to`; the confirmation mail is sent just after the 202. */
export async function waitForMail(smtp: TestSmtp, to: string, nth = 1, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(smtp, to);
    if (mails.length >= nth) return mails[nth - 1];
    if (Date.now() > until) throw new Error(`no mail #${nth} to ${to} (have ${mails.length})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The code of a confirmation mail (`XXXX-XXXX`), or null for a mail without one. */
export function codeOf(mail: { text?: string }): string | null {
  return /confirmation code: ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.text ?? '')?.[1] ?? null;
}

/**
 * The code of the `nth` mail to `to` or, when that one carries none (an invitation mailed before
 * it), of the first later mail that does — waiting for it.
 */
export async function confirmationCode(smtp: TestSmtp, to: string, nth?: number, timeoutMs = 10_000): Promise<string> {
  const from = nth ?? (await mailsTo(smtp, to)).length + 1;
  const until = Date.now() + timeoutMs;
  for (let i = from; ; i++) {
    const code = codeOf(await waitForMail(smtp, to, i, Math.max(until - Date.now(), 1)));
    if (code) return code;
  }
}

/**
 * Sends `body` (link or join) with `post` and, when the answer asks for a confirmation (202),
 * sends it again with the code mailed to `body.email`: the answer of the confirmed request. Works
 * for the hosted routes and for a desktop's `/api/sync/link` and `/api/sync/join` alike.
 */
export async function confirmed<R extends { status: number }>(smtp: TestSmtp, body: { email: string } & Record<string, unknown>, post: (body: Record<string, unknown>) => Promise<R>): Promise<R> {
  const before = (await mailsTo(smtp, body.email)).length;
  const first = await post(body);
  if (first.status !== 202) return first;
  const code = await confirmationCode(smtp, body.email, before + 1);
  return post({ ...body, confirmationCode: code });
}

/** `confirmed` on the hosted instance's own routes. */
export function withConfirmation(base: string, smtp: TestSmtp, path: string, body: { email: string } & Record<string, unknown>, headers?: Record<string, string>): Promise<Reply> {
  return confirmed(smtp, body, (b) => call(base, 'POST', path, { body: b, headers }));
}

/** `link` of client.ts for an instance that confirms new addresses. */
export async function linkConfirmed(base: string, smtp: TestSmtp, input = linkInput()): Promise<{ device: Device; input: ReturnType<typeof linkInput> }> {
  const res = await withConfirmation(base, smtp, '/sync/v1/link', input);
  if (res.status !== 201) throw new Error(`link ${res.status} ${JSON.stringify(res.body)}`);
  return { device: new Device(base, res.body as Enrolment), input };
}
