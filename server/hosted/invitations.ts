// Invitations of people into an entity, made from an owner's or admin's device: kept here (the
// code only as its hash), mailed to the person with a link to this instance's join page, listed
// with their state (sent, accepted, expired, revoked), resent (a new code) or revoked.
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { sha256Hex } from '../auth/index.js';
import { mailHtml, mailText } from '../documents/index.js';
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from '../http/errors.js';
import type { HostedRole } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { newCode, normaliseCode } from './codes.js';
import type { DeviceAuth } from './devices.js';
import { forgetPerson, writeMemberRows, writePeople } from './people.js';
import { recordHostedChanges } from './mirror.js';
import { accounts, entities, invitations, members } from './schema.js';
import type { HostedTx } from './store.js';

const INVITATION_DAYS = 7;
const MANAGERS: HostedRole[] = ['owner', 'admin'];

export type InvitationRow = typeof invitations.$inferSelect;
export type InvitationState = 'sent' | 'accepted' | 'expired' | 'revoked';

/** What a device shows of an invitation (never its code, which exists only in the mail and the answer that made it). */
export function invitationView(h: HostedContext, row: InvitationRow) {
  const state: InvitationState = row.acceptedAt ? 'accepted' : row.revokedAt ? 'revoked' : new Date(row.expiresAt).getTime() <= h.clock.now().getTime() ? 'expired' : 'sent';
  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
  return { id: row.id, email: row.email, name: row.name, role: row.role, accountId: row.accountId, state, createdAt: iso(row.createdAt), expiresAt: iso(row.expiresAt)!, acceptedAt: iso(row.acceptedAt), revokedAt: iso(row.revokedAt), mailedAt: iso(row.mailedAt) };
}

/** The join page of this instance for a code (in the mail, and as text and QR in the inviting dialog). */
export function joinUrl(base: string, code: string): string {
  return `${base.replace(/\/+$/, '')}/join?code=${encodeURIComponent(code)}`;
}

function checkInviter(auth: DeviceAuth, role: HostedRole) {
  if (!MANAGERS.includes(auth.role)) throw new ForbiddenError('Only an owner or admin can invite');
  if (role === 'owner' && auth.role !== 'owner') throw new ForbiddenError('Only an owner can invite an owner');
}

/**
 * The id the person will have: her account's when she has one here; else the id the inviting
 * device gave (its local user's, so assignments made before she joins keep pointing at her) when
 * no other account holds it; else a new one. Her account takes it when she accepts.
 */
async function inviteeId(h: HostedContext, tx: HostedTx, email: string, proposed?: string): Promise<{ id: string; name: string | null }> {
  const [account] = await tx.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.email, email));
  if (account) return account;
  // Invited before (to this or another business) and not signed up yet: the same person, the same
  // id — a device holding both businesses knows her as one person.
  const [earlier] = await tx.select({ id: invitations.accountId }).from(invitations).where(and(eq(invitations.email, email), isNotNull(invitations.accountId))).orderBy(asc(invitations.createdAt)).limit(1);
  if (earlier?.id) return { id: earlier.id, name: null };
  if (proposed && (await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, proposed))).length === 0) return { id: proposed, name: null };
  return { id: h.ids.next(), name: null };
}

/**
 * Invites a person by e-mail with a role: an invitation here (7 days; an earlier pending one of the
 * same address is withdrawn), her row "invited" on every device, and a mail with the join link
 * when this instance can send mail. 409 when she is a member already.
 */
export async function createInvitation(h: HostedContext, auth: DeviceAuth, input: { email: string; role: HostedRole; name?: string; accountId?: string }, base: string) {
  checkInviter(auth, input.role);
  const { code, shown } = newCode();
  const now = serverTime(h);
  const expiresAt = new Date(h.clock.now().getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  const row = await recordHostedChanges(h, auth.entityId, async (tx) => {
    const invitee = await inviteeId(h, tx, input.email, input.accountId);
    const [member] = await tx.select().from(members).where(and(eq(members.entityId, auth.entityId), eq(members.accountId, invitee.id)));
    if (member) throw new ConflictError('This person is already a member');
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.entityId, auth.entityId), eq(invitations.email, input.email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    await writeMemberRows(h, tx, auth.entityId);
    const name = input.name ?? invitee.name ?? input.email.split('@')[0];
    const [created] = await tx
      .insert(invitations)
      .values({ id: h.ids.next(), codeHash: sha256Hex(code), entityId: auth.entityId, email: input.email, name, role: input.role, accountId: invitee.id, createdBy: auth.accountId, createdAt: now, expiresAt })
      .returning();
    await writePeople(h, tx, auth.entityId, [{ accountId: invitee.id, email: input.email, name, role: input.role, state: 'invited', invitedAt: now, joinedAt: null }]);
    return { changes: [], result: created };
  });
  return answer(h, row, shown, base);
}

/** Mails the join link (when this instance has SMTP) and answers with the code, shown once. */
async function answer(h: HostedContext, row: InvitationRow, shown: string, base: string) {
  const url = joinUrl(base, shown);
  const mailed = await mailInvitation(h, row, shown, url, base);
  const current = mailed ? { ...row, mailedAt: serverTime(h) } : row;
  if (mailed) await h.store.db.update(invitations).set({ mailedAt: current.mailedAt }).where(eq(invitations.id, row.id));
  return { ...invitationView(h, current), code: shown, joinUrl: url, mailed };
}

/** The invitation mail; false when this instance has no SMTP or the mail failed (the dialog shows the code then). */
async function mailInvitation(h: HostedContext, row: InvitationRow, code: string, url: string, base: string): Promise<boolean> {
  if (!h.mail?.configured) return false;
  const [entity] = await h.store.db.select({ name: entities.name }).from(entities).where(eq(entities.id, row.entityId));
  const [inviter] = await h.store.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.createdBy));
  const who = inviter?.name ?? 'A colleague';
  const paragraphs = [
    `${who} invited you to work on ${entity?.name ?? 'a business'} in Bureau, as ${row.role}.`,
    `Open this page for the steps: ${url}`,
    `In short: install Bureau, choose "Accept an invitation" and enter the hosted address ${base}, this code and your own name and password. Your code: ${code}`,
    `The invitation works once and until ${new Date(row.expiresAt).toUTCString()}. If you did not expect it, ignore this mail.`,
  ];
  try {
    await h.mail.sendNow({ to: row.email, subject: `${who} invited you to ${entity?.name ?? 'Bureau'}`, text: mailText(paragraphs), html: mailHtml(paragraphs) });
    return true;
  } catch (err) {
    h.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'invitation mail not sent');
    return false;
  }
}

/** The entity's invitations, newest first (owners and admins). */
export async function listInvitations(h: HostedContext, auth: DeviceAuth) {
  if (!MANAGERS.includes(auth.role)) throw new ForbiddenError('Only an owner or admin can see invitations');
  const list = await h.store.db.select().from(invitations).where(eq(invitations.entityId, auth.entityId));
  return list.map((r) => invitationView(h, r)).sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

async function invitationOf(tx: HostedTx, auth: DeviceAuth, id: string): Promise<InvitationRow> {
  const [row] = await tx.select().from(invitations).where(and(eq(invitations.id, id), eq(invitations.entityId, auth.entityId))).for('update');
  if (!row) throw new NotFoundError('Invitation not found');
  return row;
}

/** A new code (the old one stops working) and a fresh 7 days, mailed again. 409 once accepted, 410 once revoked. */
export async function resendInvitation(h: HostedContext, auth: DeviceAuth, id: string, base: string) {
  const { code, shown } = newCode();
  const expiresAt = new Date(h.clock.now().getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  const row = await h.store.db.transaction(async (tx) => {
    const current = await invitationOf(tx, auth, id);
    checkInviter(auth, current.role);
    if (current.acceptedAt) throw new ConflictError('This invitation has been accepted already');
    if (current.revokedAt) throw new GoneError('This invitation was revoked; invite the person again');
    const [updated] = await tx.update(invitations).set({ codeHash: sha256Hex(code), expiresAt, mailedAt: null }).where(eq(invitations.id, id)).returning();
    return updated;
  });
  return answer(h, row, shown, base);
}

/** Withdraws a pending invitation: its code stops working and her "invited" row goes from every device. Idempotent. */
export async function revokeInvitation(h: HostedContext, auth: DeviceAuth, id: string) {
  return recordHostedChanges(h, auth.entityId, async (tx) => {
    const current = await invitationOf(tx, auth, id);
    checkInviter(auth, current.role);
    if (current.acceptedAt) throw new ConflictError('This invitation has been accepted already; remove the member instead');
    if (!current.revokedAt) {
      const [updated] = await tx.update(invitations).set({ revokedAt: serverTime(h) }).where(eq(invitations.id, id)).returning();
      const [member] = current.accountId ? await tx.select().from(members).where(and(eq(members.entityId, auth.entityId), eq(members.accountId, current.accountId))) : [];
      if (current.accountId && !member) await forgetPerson(h, tx, auth.entityId, current.accountId);
      return { changes: [], result: invitationView(h, updated) };
    }
    return { changes: [], result: invitationView(h, current) };
  });
}

/**
 * The invitation a typed code names, whatever its state: the code is the proof, so its holder is
 * told plainly why it no longer works (410 expired or revoked, 409 used) rather than "invalid".
 */
export async function invitationByCode(h: HostedContext, code: string): Promise<InvitationRow | null> {
  const [row] = await h.store.db.select().from(invitations).where(eq(invitations.codeHash, sha256Hex(normaliseCode(code))));
  if (!row) return null;
  if (row.acceptedAt) throw new ConflictError('This invitation has been accepted already; sign in, or ask for a new one');
  if (row.revokedAt) throw new GoneError('This invitation was withdrawn; ask the person who invited you for a new one');
  if (new Date(row.expiresAt).getTime() <= h.clock.now().getTime()) throw new GoneError('This invitation has expired; ask the person who invited you to resend it');
  return row;
}
