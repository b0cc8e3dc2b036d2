import type { ImapFlow } from 'imapflow';
import { HttpError } from '../http/errors.js';
import type { TestFailure } from './mailbox-schemas.js';

export interface ImapSettings {
  host: string;
  port: number;
  tls: boolean;
  user: string;
  password: string;
}

/** Each step (connect, greeting, TLS) waits at most this long: a dead host never hangs a request. */
export const IMAP_STEP_TIMEOUT_MS = 10_000;

/** An imapflow client with bounded timeouts and no logging (its debug log would carry the password). */
export async function imapClient(s: ImapSettings, opts: { keepIdle?: boolean } = {}): Promise<ImapFlow> {
  // imapflow loads with the first mailbox connection, not at start.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: s.host,
    port: s.port,
    secure: s.tls,
    auth: { user: s.user, pass: s.password },
    logger: false,
    connectionTimeout: IMAP_STEP_TIMEOUT_MS,
    greetingTimeout: IMAP_STEP_TIMEOUT_MS,
    socketTimeout: opts.keepIdle ? 5 * 60_000 : 60_000,
    disableAutoIdle: !opts.keepIdle,
    // IDLE again a second after each check (imapflow waits 15 s by default), so pushes come at once.
    autoIdleDelay: opts.keepIdle ? 1_000 : undefined,
    // Restarting IDLE now and then keeps NAT boxes and servers from dropping a quiet connection.
    maxIdleTime: opts.keepIdle ? 4 * 60_000 : undefined,
    // A server without IDLE is polled with NOOP on the open connection.
    missingIdleCommand: 'NOOP',
  });
  // Without a listener an 'error' event would throw; failures surface through the awaited calls.
  client.on('error', () => undefined);
  return client;
}

/** A connection failure in words a user can act on, and its kind. */
export class ImapFailure extends Error {
  constructor(
    readonly reason: TestFailure,
    message: string,
  ) {
    super(message);
  }
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET)_|ERR_OSSL_)/;

/** What went wrong, from imapflow's and Node's error codes. */
export function describeImapError(err: unknown, s: Pick<ImapSettings, 'host' | 'port' | 'tls' | 'user'>): ImapFailure {
  if (err instanceof ImapFailure) return err;
  const e = (err ?? {}) as { code?: string; authenticationFailed?: boolean; tlsFailed?: boolean; mailboxMissing?: boolean; responseText?: string; message?: string; _err?: { code?: string } };
  const code = e.code ?? e._err?.code ?? '';
  const where = `${s.host}:${s.port}`;
  if (e.authenticationFailed) return new ImapFailure('auth', `The server refused the user name or password for "${s.user}". Check both (some providers need an app password).`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
    return new ImapFailure('dns', `The server name "${s.host}" could not be found. Check the IMAP host name.`);
  if (code === 'ECONNREFUSED') return new ImapFailure('refused', `${where} refused the connection. Check the port (993 with TLS, 143 without) and that the server accepts IMAP.`);
  if (e.tlsFailed || TLS_CODES.test(code) || code === 'ClosedAfterConnectTLS') {
    const detail = /CERT|SIGNED|VERIFY/.test(code) ? ' Its certificate is not trusted or does not match the host name.' : ' The port may not use TLS: turn TLS off for port 143, or use port 993 with TLS.';
    return new ImapFailure('tls', `A secure (TLS) connection to ${where} could not be made.${detail}`);
  }
  if (/TIMEOUT|ETIMEDOUT/.test(code)) {
    const hint = !s.tls && s.port === 993 ? ' Port 993 usually needs TLS turned on.' : ' Check the host, the port and any firewall.';
    return new ImapFailure('timeout', `${where} did not answer within ${IMAP_STEP_TIMEOUT_MS / 1000} seconds.${hint}`);
  }
  if (e.mailboxMissing) return new ImapFailure('mailbox', 'Signed in, but the mailbox has no INBOX.');
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'NoConnection' || code === 'EConnectionClosed' || code === 'ClosedAfterConnectText')
    return new ImapFailure('refused', `${where} closed the connection before signing in. Check the port and the TLS setting.`);
  return new ImapFailure('refused', `${where} could not be used as an IMAP server (${(e.responseText ?? e.message ?? 'unknown error').slice(0, 200)}).`);
}

/** Opens INBOX read-only; a server that cannot is a mailbox failure, not a connection one. */
export async function openInbox(client: ImapFlow) {
  try {
    return await client.getMailboxLock('INBOX', { readOnly: true });
  } catch (err) {
    const e = err as { mailboxMissing?: boolean; responseText?: string; code?: string };
    if (e.code === 'NoConnection' || e.code === 'EConnectionClosed') throw err;
    throw new ImapFailure('mailbox', e.mailboxMissing ? 'Signed in, but the mailbox has no INBOX.' : `Signed in, but the server could not open INBOX${e.responseText ? `: ${e.responseText.slice(0, 200)}` : ''}.`);
  }
}

/** A failed connection test: 422 with the reason, so a form can point at the field to fix. */
export class MailboxTestError extends HttpError {
  constructor(failure: ImapFailure) {
    super(422, failure.message, { reason: failure.reason });
  }
}

/** Connects, signs in and opens INBOX; resolves with how many messages it holds. */
export async function checkImap(s: ImapSettings): Promise<number> {
  const client = await imapClient(s);
  // The steps have their own timeouts; this bounds the whole check too.
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    client.close();
  }, 3 * IMAP_STEP_TIMEOUT_MS);
  try {
    await client.connect();
    const lock = await openInbox(client);
    try {
      return client.mailbox ? client.mailbox.exists : 0;
    } finally {
      lock.release();
    }
  } catch (err) {
    throw describeImapError(timedOut ? { code: 'ETIMEOUT' } : err, s);
  } finally {
    clearTimeout(deadline);
    await client.logout().catch(() => client.close());
  }
}
