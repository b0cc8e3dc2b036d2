// A device whose account was removed from a linked entity lets the entity go (called by the engine's
// cycle when the hosted instance says so).
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import { memberships } from '../auth/index.js';
import { linkOf, refreshLinked } from './engine-state.js';
import { syncChanges, syncLinks } from './tables.js';

/**
 * This device's account was removed from the entity (the hosted instance now answers its token
 * with 401, saying so). The memberships of the entity go, so nobody signs into it here any more,
 * and so does the link and its queue (there is nothing left to sync with). The entity's rows stay
 * in this install's database, unreachable through the app: nothing an owner may want back from
 * this machine is destroyed, and a later invitation can bring the person back.
 */
export function leaveRemovedEntity(ctx: Context, entityId: string): void {
  if (!linkOf(ctx, entityId)) return;
  write(ctx, (tx) => {
    tx.delete(memberships).where(eq(memberships.entityId, entityId)).run();
    tx.delete(syncChanges).where(eq(syncChanges.entityId, entityId)).run();
    tx.delete(syncLinks).where(eq(syncLinks.entityId, entityId)).run();
    refreshLinked(ctx);
  });
  ctx.log.warn({ entityId }, 'sync: this account was removed from the entity; its link and memberships are gone here');
}
