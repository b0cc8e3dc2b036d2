// The ticket-number prefix of a business, as the API shows it and an owner sets it.
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { type Auth, roleOf } from '../auth/index.js';
import { ForbiddenError } from '../http/errors.js';
import { helpdeskSettings } from './tables.js';
import { ticketPrefixOf } from './numbering.js';
import { entityLinks } from '../kernel/entity-links.js';

export function getTicketNumbering(ctx: Context, entityId: string) {
  const { prefix, chosen } = ticketPrefixOf(ctx.db, entityId);
  return { prefix, chosen, assignedBy: entityLinks().linkOf(ctx.db, entityId) ? ('hosted' as const) : ('device' as const) };
}

/** An owner's choice (null: back to the prefix derived from the name); new tickets use it, existing ones keep their numbers. */
export function setTicketPrefix(ctx: Context, entityId: string, auth: Auth | null, prefix: string | null) {
  if (auth?.kind !== 'session' || roleOf(ctx, entityId, auth.userId) !== 'owner') throw new ForbiddenError('Only an owner can change the ticket-number prefix');
  const updatedAt = nowIso(ctx);
  write(ctx, (tx) => {
    tx
      .insert(helpdeskSettings)
      .values({ entityId, ticketPrefix: prefix, updatedAt })
      .onConflictDoUpdate({ target: helpdeskSettings.entityId, set: { ticketPrefix: prefix, updatedAt } })
      .run();
  });
  return getTicketNumbering(ctx, entityId);
}
