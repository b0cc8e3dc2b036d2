import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { syncLinks } from './tables.js';

/**
 * Where the entity's hosted instance serves public pages (signing links), when the entity is
 * linked to one that does. A leaf module: documents asks it without loading the sync engine.
 */
export function publicPagesUrl(ctx: Context, entityId: string): string | null {
  return ctx.db.select({ publicUrl: syncLinks.publicUrl }).from(syncLinks).where(eq(syncLinks.entityId, entityId)).get()?.publicUrl ?? null;
}

/** This device's role in the entity on the hosted instance, or null when the entity is not linked. */
export function linkRoleOf(ctx: Context, entityId: string): string | null {
  return ctx.db.select({ role: syncLinks.role }).from(syncLinks).where(eq(syncLinks.entityId, entityId)).get()?.role ?? null;
}
