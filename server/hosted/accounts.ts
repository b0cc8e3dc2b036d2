import { eq } from 'drizzle-orm';
import { hashPassword, verifyPassword, burnPasswordCheck } from '../auth/passwords.js';
import { UnauthorizedError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { accounts } from './schema.js';

export type AccountRow = typeof accounts.$inferSelect;

/**
 * The account with this e-mail, checked against its password — or, on first use, a new account
 * with that password (hashed here; a device's own password hash never travels).
 */
export async function signInOrCreateAccount(h: HostedContext, input: { email: string; password: string; name?: string; accountId?: string }): Promise<AccountRow> {
  const [existing] = await h.store.db.select().from(accounts).where(eq(accounts.email, input.email));
  if (existing) {
    if (!(await verifyPassword(input.password, existing.passwordHash))) throw new UnauthorizedError('Invalid e-mail or password');
    return existing;
  }
  const passwordHash = await hashPassword(input.password);
  const taken = input.accountId ? (await h.store.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, input.accountId))).length > 0 : true;
  const row = { id: taken ? h.ids.next() : input.accountId!, email: input.email, name: input.name ?? input.email.split('@')[0], passwordHash, createdAt: serverTime(h) };
  // A concurrent first use of the same e-mail: exactly one insert wins, the other signs in.
  const [created] = await h.store.db.insert(accounts).values(row).onConflictDoNothing().returning();
  return created ?? signInExisting(h, input);
}

/** An existing account only (joining never creates one). */
export async function signInExisting(h: HostedContext, input: { email: string; password: string }): Promise<AccountRow> {
  const [row] = await h.store.db.select().from(accounts).where(eq(accounts.email, input.email));
  if (!row) {
    await burnPasswordCheck(input.password); // same time whether or not the e-mail exists
    throw new UnauthorizedError('Invalid e-mail or password');
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) throw new UnauthorizedError('Invalid e-mail or password');
  return row;
}
