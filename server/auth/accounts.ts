import { and, eq, gt, count } from 'drizzle-orm';
import type { Response } from 'express';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { entities, invitations, loginFailures, memberships, sessions, users } from './tables.js';
import { burnPasswordCheck, hashPassword, randomToken, sha256Hex, verifyPassword } from './passwords.js';
import { SESSION_COOKIE } from './authenticate.js';
import { ConflictError, RateLimitedError, UnauthorizedError, BadRequestError } from '../http/errors.js';

const SESSION_DAYS = 30;
const THROTTLE_WINDOW_MIN = 15;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 20;

export type UserRow = typeof users.$inferSelect;

export function publicUser(u: UserRow) {
  return { id: u.id, email: u.email, name: u.name, createdAt: u.createdAt };
}

export async function signUp(ctx: Context, input: { email: string; password: string; name: string; entityName: string }) {
  const passwordHash = await hashPassword(input.password);
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const existing = tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get();
    if (existing) throw new ConflictError('An account with this e-mail already exists');
    const user = { id: ctx.ids.next(), email: input.email, name: input.name, passwordHash, createdAt: now, updatedAt: now };
    tx.insert(users).values(user).run();
    const entity = { id: ctx.ids.next(), name: input.entityName, createdBy: user.id, createdAt: now, updatedAt: now };
    tx.insert(entities).values(entity).run();
    tx.insert(memberships).values({ entityId: entity.id, userId: user.id, role: 'owner', createdAt: now }).run();
    return { user: publicUser(user), entity: { id: entity.id, name: entity.name, createdAt: now, updatedAt: now } };
  });
}

/**
 * Checks e-mail and password. The attempt is recorded as a failure *before* the (slow, async)
 * password check and withdrawn only when it succeeds, so a burst of concurrent attempts cannot
 * get more checks than the limit allows — and a crash mid-check counts against the attacker.
 */
export async function logIn(ctx: Context, input: { email: string; password: string; ip: string }, changedElsewhere?: (userId: string, password: string) => Promise<boolean>) {
  reserveLoginAttempt(ctx, input.email, input.ip);
  const user = ctx.db.select().from(users).where(eq(users.email, input.email)).get();
  let ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : (await burnPasswordCheck(input.password), false);
  // One password per person: one changed on another of her devices is asked of the hosted account (inside the same throttle).
  if (!ok && user?.passwordHash && changedElsewhere) ok = await changedElsewhere(user.id, input.password);
  if (!ok || !user) throw new UnauthorizedError('Invalid e-mail or password');
  // Success clears this e-mail's failures (the reservation among them); the IP keeps the others.
  ctx.db.delete(loginFailures).where(eq(loginFailures.email, input.email)).run();
  return user;
}

/** Refuses the attempt when the e-mail or the IP is over its limit; otherwise counts it as a failure until it succeeds. */
function reserveLoginAttempt(ctx: Context, email: string, ip: string): void {
  const since = new Date(ctx.clock.now().getTime() - THROTTLE_WINDOW_MIN * 60_000).toISOString();
  write(ctx, (tx) => {
    const byEmail = tx.select({ n: count() }).from(loginFailures).where(and(eq(loginFailures.email, email), gt(loginFailures.at, since))).get()!.n;
    const byIp = tx.select({ n: count() }).from(loginFailures).where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, since))).get()!.n;
    if (byEmail >= MAX_FAILURES_PER_EMAIL || byIp >= MAX_FAILURES_PER_IP) {
      throw new RateLimitedError(THROTTLE_WINDOW_MIN * 60, 'Too many failed sign-in attempts; try again later');
    }
    tx.insert(loginFailures).values({ email, ip, at: nowIso(ctx) }).run();
  });
}

/**
 * A fresh install: no account exists yet, so the app opens on set-up rather than sign-in.
 * Reveals nothing but that one fact (no count, no e-mail).
 */
export function isSetupNeeded(ctx: Context): boolean {
  return !ctx.db.select({ id: users.id }).from(users).limit(1).get();
}

/** Creates a session and sets its cookie (HttpOnly, SameSite=Strict). */
export function startSession(ctx: Context, res: Response, userId: string, userAgent: string | null): void {
  const token = randomToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  ctx.db
    .insert(sessions)
    .values({ id: ctx.ids.next(), tokenHash: sha256Hex(token), userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString(), userAgent })
    .run();
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', maxAge: SESSION_DAYS * 86_400_000 });
}

export function endSession(ctx: Context, res: Response, sessionId: string | null): void {
  if (sessionId) ctx.db.delete(sessions).where(eq(sessions.id, sessionId)).run();
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/' });
}

/** An invited person sets their password and gets a session. */
export async function acceptInvite(ctx: Context, input: { token: string; password: string; name?: string }) {
  const passwordHash = await hashPassword(input.password);
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const inv = tx.select().from(invitations).where(eq(invitations.tokenHash, sha256Hex(input.token))).get();
    if (!inv || inv.acceptedAt || inv.expiresAt <= now) throw new BadRequestError('Invitation is invalid or has expired');
    tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, inv.id)).run();
    tx.update(users)
      .set({ passwordHash, updatedAt: now, ...(input.name ? { name: input.name } : {}) })
      .where(eq(users.id, inv.userId))
      .run();
    return tx.select().from(users).where(eq(users.id, inv.userId)).get()!;
  });
}
