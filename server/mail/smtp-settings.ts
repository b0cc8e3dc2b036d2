// This install's own SMTP server: set in Settings → E-mail, or given as `--smtp-url` at start.
// Precedence: the saved setting wins over `--smtp-url` (a person changing it in the UI sees
// the effect at once); deleting the setting falls back to the flag; neither means no SMTP here.
import { eq } from 'drizzle-orm';
import type { SentMessageInfo, Transporter } from 'nodemailer';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError } from '../http/errors.js';
import { mailSettings } from './tables.js';

type SettingsRow = typeof mailSettings.$inferSelect;

export interface SmtpInput {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  username?: string | null;
  /** Absent on update: keep the stored password; null: remove it. */
  password?: string | null;
  fromAddress: string;
  fromName?: string | null;
}

/** Where this install's SMTP comes from: `settings` (the UI), `flag` (`--smtp-url`), or none. */
export type SmtpSource = 'settings' | 'flag' | null;

function settingsRow(ctx: Context): SettingsRow | undefined {
  return ctx.db.select().from(mailSettings).where(eq(mailSettings.id, 1)).get();
}

/** The saved setting as shown (never the password, only whether there is one). */
export function getSmtpSettings(ctx: Context) {
  const row = settingsRow(ctx);
  const source: SmtpSource = row ? 'settings' : ctx.config.smtpUrl ? 'flag' : null;
  return {
    source,
    settings: row ? { host: row.host, port: row.port, security: row.security, username: row.username, hasPassword: Boolean(row.passwordSealed), fromAddress: row.fromAddress, fromName: row.fromName, updatedAt: row.updatedAt } : null,
  };
}

export function saveSmtpSettings(ctx: Context, userId: string | null, input: SmtpInput) {
  const existing = settingsRow(ctx);
  const passwordSealed = input.password === undefined ? (existing?.passwordSealed ?? null) : input.password === null ? null : ctx.secrets.seal(input.password);
  const values = { host: input.host, port: input.port, security: input.security, username: input.username ?? null, passwordSealed, fromAddress: input.fromAddress, fromName: input.fromName ?? null, updatedAt: nowIso(ctx), updatedBy: userId };
  ctx.db.insert(mailSettings).values({ id: 1, ...values }).onConflictDoUpdate({ target: mailSettings.id, set: values }).run();
  return getSmtpSettings(ctx);
}

export function deleteSmtpSettings(ctx: Context) {
  ctx.db.delete(mailSettings).where(eq(mailSettings.id, 1)).run();
  return getSmtpSettings(ctx);
}

/** nodemailer options of a setting (the password opened only here, for the transport). */
function transportOptions(s: Omit<SmtpInput, 'password'> & { password: string | null }) {
  return {
    host: s.host,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    ignoreTLS: s.security === 'none',
    ...(s.username ? { auth: { user: s.username, pass: s.password ?? '' } } : {}),
    // A test or a mail loop pass must not hang on a server that never answers.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  };
}

const from = (s: { fromAddress: string; fromName?: string | null }) => (s.fromName ? { name: s.fromName, address: s.fromAddress } : s.fromAddress);

export interface SmtpTestResult {
  ok: boolean;
  to: string;
  /** The server's answer to the message (`250 …`), or why it failed. */
  response: string;
  /** nodemailer's error code (`ECONNREFUSED`, `EAUTH`, `ETIMEDOUT` …) when it failed. */
  code: string | null;
  /** The SMTP reply code of a refusal (535: bad credentials). */
  responseCode: number | null;
}

const transports = new WeakMap<Context, { key: string; transport: Transporter }>();

/** The transport mail goes out through on this install and its default From, or null without SMTP. */
export async function smtpTransport(ctx: Context): Promise<{ transport: Transporter; from: string | { name: string; address: string } } | null> {
  const row = settingsRow(ctx);
  const key = row ? `settings:${row.updatedAt}` : ctx.config.smtpUrl ? `flag:${ctx.config.smtpUrl}` : null;
  if (!key) return null;
  let cached = transports.get(ctx);
  if (cached?.key !== key) {
    cached?.transport.close();
    // nodemailer loads with the first mail sent, not at start.
    const { default: nodemailer } = await import('nodemailer');
    const transport = row ? nodemailer.createTransport(transportOptions({ ...row, password: row.passwordSealed ? ctx.secrets.open(row.passwordSealed).toString('utf8') : null })) : nodemailer.createTransport(ctx.config.smtpUrl);
    cached = { key, transport };
    transports.set(ctx, cached);
  }
  return { transport: cached.transport, from: row ? from(row) : ctx.config.mailFrom };
}

/**
 * Sends one test message with the given setting (saved or not yet saved: a person tries before
 * saving) and reports the SMTP server's answer; a refusal is a 502 with the server's words.
 */
export async function testSmtpSettings(ctx: Context, input: SmtpInput | null, to: string): Promise<SmtpTestResult> {
  const row = settingsRow(ctx);
  const s = input
    ? { ...input, password: input.password === undefined ? (row?.passwordSealed ? ctx.secrets.open(row.passwordSealed).toString('utf8') : null) : input.password }
    : row
      ? { ...row, password: row.passwordSealed ? ctx.secrets.open(row.passwordSealed).toString('utf8') : null }
      : null;
  if (!s) throw new BadRequestError('No SMTP server is saved: give the settings to test');
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(transportOptions(s));
  try {
    const info = (await transport.sendMail({ from: from(s), to, subject: 'Bureau: test e-mail', text: 'This is a test e-mail from Bureau. Your SMTP settings work.' })) as SentMessageInfo & { response?: string };
    return { ok: true, to, response: info.response ?? '', code: null, responseCode: null };
  } catch (err) {
    // The server's own words (no credentials are in them): what a person needs to fix the setting.
    const e = err as { message?: string; responseCode?: number; code?: string };
    return { ok: false, to, response: (e.message ?? 'unknown error').slice(0, 300), code: e.code ?? null, responseCode: e.responseCode ?? null };
  } finally {
    transport.close();
  }
}
