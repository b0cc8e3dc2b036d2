// Who may open a hosted account, and the e-mail confirmation that makes one: an account belongs to
// whoever reads the address's mail. A sign-up is held (with its password hash) until the code
// mailed to the address comes back; the code exists only in that mail (its hash is kept).
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { burnPasswordCheck, hashPassword, sha256Hex, verifyPassword } from '../auth/index.js';
import { mailHtml, mailText } from '../documents/index.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { newCode, normaliseCode } from './codes.js';
import { invitations, signups } from './schema.js';
import type { ConfirmationSent } from '../sync/protocol.js';

/** `--signups`: `open` anyone (confirmed by e-mail), `invite` only an invited address, `closed` existing accounts only. */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** The answer (202) when the address must confirm first: the same shape for every address. */
export type { ConfirmationSent };

/**
 * How a new account may come to be in this request: `confirm` by a mailed code, `direct` at once
 * (no SMTP to confirm with: open sign-ups are then unconfirmed, the CLI warns), or `refuse`.
 */
export type SignUpRule = 'confirm' | 'direct' | 'refuse';

const CODE_MINUTES = 30;
/** Wrong codes a held sign-up survives (the per-account throttle stops guessing sooner). */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * The rule for `email` arriving by `link` or with an `invitation` code for it. In invite mode a
 * link may sign up only an address holding a pending invitation, and only when the address can be
 * confirmed (else the invitation code, redeemed with join, is the only proof there is).
 */
export async function signUpRule(h: HostedContext, email: string, via: 'link' | 'invitation'): Promise<SignUpRule> {
  const mode = h.signups ?? 'open';
  const canConfirm = h.mail?.configured ?? false;
  if (mode === 'closed') return 'refuse';
  if (mode === 'open' || via === 'invitation') return canConfirm ? 'confirm' : 'direct';
  return canConfirm && (await holdsInvitation(h, email)) ? 'confirm' : 'refuse';
}

async function holdsInvitation(h: HostedContext, email: string): Promise<boolean> {
  const found = await h.store.db
    .select({ codeHash: invitations.codeHash })
    .from(invitations)
    .where(and(eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, serverTime(h))))
    .limit(1);
  return found.length > 0;
}

/** Why a sign-in that is not an account's is refused: one message for known and unknown addresses. */
export function refusalMessage(h: HostedContext): string {
  const hint = { open: '', invite: ' (new accounts on this instance need an invitation)', closed: ' (this instance takes no new accounts)' }[h.signups ?? 'open'];
  return `Invalid e-mail or password${hint}`;
}

/** Holds a sign-up (replacing an earlier one of the address: its code dies) and mails its code. */
export async function startSignUp(h: HostedContext, input: { email: string; password: string; name?: string; accountId?: string }): Promise<ConfirmationSent> {
  const passwordHash = await hashPassword(input.password);
  const { code, shown } = newCode(8);
  const now = serverTime(h);
  const held = {
    name: input.name ?? null,
    accountId: input.accountId ?? null,
    passwordHash,
    codeHash: sha256Hex(code),
    attempts: 0,
    expiresAt: new Date(h.clock.now().getTime() + CODE_MINUTES * 60_000).toISOString(),
    createdAt: now,
  };
  await h.store.db
    .insert(signups)
    .values({ email: input.email, ...held })
    .onConflictDoUpdate({ target: signups.email, set: held });
  // Sign-ups nobody confirmed go as new ones come: the table holds at most 30 minutes of them.
  await h.store.db.delete(signups).where(lt(signups.expiresAt, now));
  sendAccountMail(h, confirmationMail(h, input.email, shown));
  return { confirmation: 'sent', email: input.email };
}

/** The held sign-up this code confirms, taken (single use); null for a wrong, expired, used or worn-out code. */
export async function takeSignUp(h: HostedContext, input: { email: string; password: string; confirmationCode: string }): Promise<typeof signups.$inferSelect | null> {
  const { email } = input;
  const now = serverTime(h);
  const codeHash = sha256Hex(normaliseCode(input.confirmationCode));
  const live = and(eq(signups.email, email), eq(signups.codeHash, codeHash), gt(signups.expiresAt, now), lt(signups.attempts, MAX_CODE_ATTEMPTS));
  const [held] = await h.store.db.select().from(signups).where(live);
  // The password must be the one the sign-up was made with: the code alone (a glance at someone's inbox) sets nothing.
  const matches = held ? await verifyPassword(input.password, held.passwordHash) : (await burnPasswordCheck(input.password), false);
  if (!held || !matches) {
    await h.store.db
      .update(signups)
      .set({ attempts: sql`${signups.attempts} + 1` })
      .where(eq(signups.email, email));
    return null;
  }
  const [taken] = await h.store.db.delete(signups).where(live).returning();
  return taken ?? null;
}

/** To the address's owner when someone linked with it and a wrong password: nothing that lets anyone in. */
export function mailPasswordMismatch(h: HostedContext, email: string): ConfirmationSent {
  const where = instanceName(h);
  const paragraphs = [
    `Someone tried to link or join a Bureau entity on ${where} with this e-mail address, but the password did not match your account there, so nothing was changed.`,
    'If it was you, try again with the password of your account on that instance. If it was not, you need not do anything: repeated attempts are blocked for a while.',
  ];
  sendAccountMail(h, { to: email, subject: 'Someone tried to use your Bureau account', text: mailText(paragraphs), html: mailHtml(paragraphs) });
  return { confirmation: 'sent', email };
}

function confirmationMail(h: HostedContext, email: string, code: string) {
  const paragraphs = [
    `Someone (we hope you) asked to open a Bureau account with this e-mail address on ${instanceName(h)}.`,
    `Your confirmation code: ${code}`,
    `Enter it in Bureau within ${CODE_MINUTES} minutes; it works once. If this was not you, ignore this mail: no account is made without the code.`,
  ];
  return { to: email, subject: `Your Bureau confirmation code: ${code}`, text: mailText(paragraphs), html: mailHtml(paragraphs) };
}

const instanceName = (h: HostedContext) => h.publicUrl ?? 'a Bureau hosted instance';

/** Sent now, not awaited: the answer's timing does not depend on the mail server, and a lost mail is asked for again. */
function sendAccountMail(h: HostedContext, message: { to: string; subject: string; text: string; html: string }): void {
  h.mail?.sendNow(message).catch((err: unknown) => h.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'account mail not sent'));
}
