import { eq } from 'drizzle-orm';
import { hashPassword, verifyPassword, burnPasswordCheck } from '../auth/index.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { accounts } from './schema.js';
import { mailPasswordMismatch, refusalMessage, startSignUp, takeSignUp, type ConfirmationSent, type SignUpRule } from './signups.js';

export type AccountRow = typeof accounts.$inferSelect;

type Credentials = { email: string; password: string; name?: string; accountId?: string; confirmationCode?: string };

export const INVALID_CONFIRMATION = 'Invalid or expired confirmation code';

export function isConfirmationSent(value: unknown): value is ConfirmationSent {
  return typeof value === 'object' && value !== null && (value as ConfirmationSent).confirmation === 'sent';
}

/**
 * The account with this e-mail, checked against its password — or a new one, as `rule` allows:
 * `confirm` answers "confirmation sent" until the code mailed to the address comes back with the
 * same password; `direct` makes it at once. An address with an account and a wrong password gets
 * the same answer as an unknown one (its owner is mailed that the password did not match), after
 * one password check either way, so the answers do not tell addresses apart.
 */
export async function signInOrSignUp(h: HostedContext, input: Credentials, rule: SignUpRule): Promise<AccountRow | ConfirmationSent> {
  const [existing] = await h.store.db.select().from(accounts).where(eq(accounts.email, input.email));
  if (existing) {
    if (await verifyPassword(input.password, existing.passwordHash)) return existing;
    if (rule !== 'confirm') throw new UnauthorizedError(refusalMessage(h));
    if (input.confirmationCode) throw new UnauthorizedError(INVALID_CONFIRMATION);
    return mailPasswordMismatch(h, existing.email);
  }
  if (rule === 'refuse') {
    await burnPasswordCheck(input.password); // same time whether or not the e-mail exists
    throw new UnauthorizedError(refusalMessage(h));
  }
  if (rule === 'direct') return createAccount(h, input, await hashPassword(input.password));
  if (!input.confirmationCode) return startSignUp(h, input);
  const held = await takeSignUp(h, { email: input.email, password: input.password, confirmationCode: input.confirmationCode });
  if (!held) throw new UnauthorizedError(INVALID_CONFIRMATION);
  return createAccount(h, { email: input.email, password: input.password, name: held.name ?? undefined, accountId: held.accountId ?? undefined }, held.passwordHash);
}

/** A new account; it takes the desktop user's id when free, so the user has one id on every device. */
async function createAccount(h: HostedContext, input: Credentials, passwordHash: string): Promise<AccountRow> {
  const taken = input.accountId ? (await h.store.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, input.accountId))).length > 0 : true;
  const row = { id: taken ? h.ids.next() : input.accountId!, email: input.email, name: input.name ?? input.email.split('@')[0], passwordHash, createdAt: serverTime(h) };
  // A concurrent first use of the same e-mail: exactly one insert wins, the other signs in.
  const [created] = await h.store.db.insert(accounts).values(row).onConflictDoNothing().returning();
  return created ?? signInExisting(h, input);
}

/** An existing account only (an add-device code never makes one). */
export async function signInExisting(h: HostedContext, input: { email: string; password: string }): Promise<AccountRow> {
  const [row] = await h.store.db.select().from(accounts).where(eq(accounts.email, input.email));
  if (!row) {
    await burnPasswordCheck(input.password); // same time whether or not the e-mail exists
    throw new UnauthorizedError('Invalid e-mail or password');
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) throw new UnauthorizedError('Invalid e-mail or password');
  return row;
}

/**
 * Changes the password of the calling device's account, given its current one: one credential per
 * person, so her other devices take the new one at their next sign-in (each keeps its own local hash).
 */
export async function changeAccountPassword(h: HostedContext, accountId: string, input: { currentPassword: string; newPassword: string }): Promise<void> {
  const [row] = await h.store.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) throw new ForbiddenError('The current password is not this account\'s password');
  await h.store.db.update(accounts).set({ passwordHash: await hashPassword(input.newPassword) }).where(eq(accounts.id, accountId));
}

/** Whether `password` is the calling device's account's (a device whose local hash is older asks). 403 when not. */
export async function checkAccountPassword(h: HostedContext, accountId: string, password: string): Promise<void> {
  const [row] = await h.store.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row || !(await verifyPassword(password, row.passwordHash))) throw new ForbiddenError('Not this account\'s password');
}
