// Relays the bundle kept for one of the entity's history rows. A failure that passes (bundler or
// chain unreachable) leaves the row `proved` with why (relay.ts notes it: Try again); any other
// refusal of a row still `proved` fails it with the reason, as the relay's own checks do.
import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { HttpError } from '../http/errors.js';
import { relayTransfer, type RelayResult } from './relay.js';
import { storedBundle } from './spend.js';
import { walletActivity, walletBundles } from './tables.js';

export async function relayRecorded(ctx: Context, entityId: string, activityId: string): Promise<RelayResult> {
  const stored = storedBundle(ctx, entityId, activityId);
  if (!stored) throw new Error(`no bundle kept for activity ${activityId}`);
  // A reason kept from an earlier attempt says nothing about this one.
  ctx.db.update(walletBundles).set({ relayError: null, updatedAt: nowIso(ctx) }).where(eq(walletBundles.activityId, activityId)).run();
  try {
    return await relayTransfer(ctx, stored.bundle);
  } catch (err) {
    const noted = ctx.db.select({ relayError: walletBundles.relayError }).from(walletBundles).where(eq(walletBundles.activityId, activityId)).get()?.relayError;
    if (!noted) {
      const error = err instanceof HttpError ? err.message : 'Submission failed';
      ctx.db
        .update(walletActivity)
        .set({ status: 'failed', error, updatedAt: nowIso(ctx) })
        .where(and(eq(walletActivity.id, activityId), eq(walletActivity.status, 'proved'), isNull(walletActivity.error)))
        .run();
    }
    throw err;
  }
}
