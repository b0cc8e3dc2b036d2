import { and, count, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { syncChanges } from './tables.js';

/** Local changes the hosted instance has not answered for yet. */
export function waitingChanges(ctx: Context, entityId: string): number {
  return ctx.db.select({ n: count() }).from(syncChanges).where(and(eq(syncChanges.entityId, entityId), isNull(syncChanges.result))).get()!.n;
}
