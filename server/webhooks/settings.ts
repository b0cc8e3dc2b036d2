import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { webhookSettings } from './tables.js';

export function getWebhookSettings(ctx: Context, entityId: string): { allowLocalTargets: boolean; source: 'default' | 'entity' } {
  const row = ctx.db.select().from(webhookSettings).where(eq(webhookSettings.entityId, entityId)).get();
  return row ? { allowLocalTargets: row.allowLocalTargets, source: 'entity' } : { allowLocalTargets: ctx.config.allowLocalWebhookTargets, source: 'default' };
}

export function allowsLocalTargets(ctx: Context, entityId: string): boolean {
  return getWebhookSettings(ctx, entityId).allowLocalTargets;
}

/** true/false overrides the installation default for this entity; null returns to it. */
export function updateWebhookSettings(ctx: Context, entityId: string, allowLocalTargets: boolean | null) {
  if (allowLocalTargets === null) ctx.db.delete(webhookSettings).where(eq(webhookSettings.entityId, entityId)).run();
  else
    ctx.db
      .insert(webhookSettings)
      .values({ entityId, allowLocalTargets, updatedAt: nowIso(ctx) })
      .onConflictDoUpdate({ target: webhookSettings.entityId, set: { allowLocalTargets, updatedAt: nowIso(ctx) } })
      .run();
  return getWebhookSettings(ctx, entityId);
}
