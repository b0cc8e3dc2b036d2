import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError } from '../http/errors.js';
import { mailRouteOf } from '../mail/index.js';
import { helpdeskMailboxImap, helpdeskMailboxes } from './tables.js';
import { checkImap, describeImapError, MailboxTestError, type ImapSettings } from './imap.js';
import type { PutMailboxInput, TestMailboxInput } from './mailbox-schemas.js';

export type ImapRow = typeof helpdeskMailboxImap.$inferSelect;

export function imapRowOf(db: Queryable, entityId: string): ImapRow | undefined {
  return db.select().from(helpdeskMailboxImap).where(eq(helpdeskMailboxImap.entityId, entityId)).get();
}

/** The connection settings with the password unsealed (kept in memory only while connecting). */
export function imapSettingsOf(ctx: Context, row: ImapRow): ImapSettings {
  return { host: row.host, port: row.port, tls: row.tls, user: row.user, password: ctx.secrets.open(row.passwordSealed).toString('utf8') };
}

/** The same mailbox account: the stored password may be reused only for it (never sent to another host). */
const sameAccount = (row: ImapRow | undefined, host: string, user: string) => !!row && row.host.toLowerCase() === host.toLowerCase() && row.user === user;

export function getMailbox(ctx: Context, entityId: string) {
  const box = ctx.db.select().from(helpdeskMailboxes).where(eq(helpdeskMailboxes.entityId, entityId)).get();
  const imap = imapRowOf(ctx.db, entityId);
  return {
    address: box?.address ?? null,
    displayName: box?.displayName ?? null,
    signature: box?.signature ?? null,
    imap: imap ? { host: imap.host, port: imap.port, tls: imap.tls, user: imap.user, passwordSet: true } : null,
    incoming: imap
      ? { state: imap.state, lastCheckedAt: imap.lastCheckedAt, lastError: imap.lastError, nextAttemptAt: imap.nextAttemptAt }
      : { state: 'off' as const, lastCheckedAt: null, lastError: null, nextAttemptAt: null },
    outgoing: { configured: box?.address ? mailRouteOf(ctx, entityId, { from: { name: box.displayName, address: box.address } }) !== null : mailRouteOf(ctx, entityId) !== null },
  };
}

const orNull = (s: string | null | undefined) => (s && s.trim() ? s : null);

export function putMailbox(ctx: Context, entityId: string, input: PutMailboxInput) {
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    const box = tx.select().from(helpdeskMailboxes).where(eq(helpdeskMailboxes.entityId, entityId)).get();
    const row = {
      entityId,
      address: input.address,
      displayName: input.displayName === undefined ? (box?.displayName ?? null) : orNull(input.displayName),
      signature: input.signature === undefined ? (box?.signature ?? null) : orNull(input.signature),
      updatedAt: now,
    };
    tx.insert(helpdeskMailboxes).values(row).onConflictDoUpdate({ target: helpdeskMailboxes.entityId, set: row }).run();

    if (input.imap === null) tx.delete(helpdeskMailboxImap).where(eq(helpdeskMailboxImap.entityId, entityId)).run();
    if (!input.imap) return;
    const before = imapRowOf(tx, entityId);
    const same = sameAccount(before, input.imap.host, input.imap.user);
    if (!input.imap.password && !same) throw new BadRequestError('imap.password: is required for a new mailbox, or when the host or user changes');
    const imap = {
      entityId,
      host: input.imap.host,
      port: input.imap.port,
      tls: input.imap.tls,
      user: input.imap.user,
      passwordSealed: input.imap.password ? ctx.secrets.seal(input.imap.password) : before!.passwordSealed,
      state: 'connecting' as const,
      failures: 0,
      lastError: null,
      nextAttemptAt: now,
      // Another account is another mailbox: where to resume is no longer known.
      uidValidity: same ? before!.uidValidity : null,
      lastUid: same ? before!.lastUid : 0,
      lastCheckedAt: same ? before!.lastCheckedAt : null,
      updatedAt: now,
    };
    tx.insert(helpdeskMailboxImap).values(imap).onConflictDoUpdate({ target: helpdeskMailboxImap.entityId, set: imap }).run();
  });
  return getMailbox(ctx, entityId);
}

export function deleteMailbox(ctx: Context, entityId: string) {
  write(ctx, (tx) => {
    tx.delete(helpdeskMailboxImap).where(eq(helpdeskMailboxImap.entityId, entityId)).run();
    tx.delete(helpdeskMailboxes).where(eq(helpdeskMailboxes.entityId, entityId)).run();
  });
  return { deleted: true as const };
}

/** Tries the given settings over the saved ones: connect, sign in, open INBOX. */
export async function testMailbox(ctx: Context, entityId: string, input: TestMailboxInput) {
  const saved = imapRowOf(ctx.db, entityId);
  const given = input.imap ?? {};
  const host = given.host ?? saved?.host;
  const user = given.user ?? saved?.user;
  const port = given.port ?? saved?.port;
  const tls = given.tls ?? saved?.tls;
  if (host === undefined) throw new BadRequestError('imap.host: is required (no saved settings)');
  if (user === undefined) throw new BadRequestError('imap.user: is required (no saved settings)');
  if (port === undefined) throw new BadRequestError('imap.port: is required (no saved settings)');
  if (tls === undefined) throw new BadRequestError('imap.tls: is required (no saved settings)');
  let password = given.password;
  if (password === undefined) {
    if (!sameAccount(saved, host, user)) throw new BadRequestError('imap.password: is required for a new mailbox, or when the host or user changes');
    password = imapSettingsOf(ctx, saved!).password;
  }
  try {
    const messages = await checkImap({ host, port, tls, user, password });
    return { ok: true as const, mailbox: 'INBOX' as const, messages };
  } catch (err) {
    const failure = describeImapError(err, { host, port, tls, user });
    ctx.log.info({ entityId, reason: failure.reason }, 'helpdesk mailbox test failed');
    throw new MailboxTestError(failure);
  }
}
