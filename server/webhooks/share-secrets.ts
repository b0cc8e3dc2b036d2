// Secrets between a device and the hosted instance, outside the sync log (which every device
// reads): before each push, the secrets this device made go to the hosted instance over its
// device-authenticated endpoint (TLS; stored sealed there), and a device named as a deliverer
// that lacks the secret in force fetches it — the hosted instance gives it only to that device.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import { entityLinks } from '../kernel/entity-links.js';
import { webhookSecrets, webhookSubscriptions } from './tables.js';
import { markSecretShared, storeSecret, unsharedSecrets } from './secrets.js';

const fetched = z.object({ secret: z.string() });

export async function shareSecrets(ctx: Context, entityId: string, hosted: { url: string; token: string }): Promise<void> {
  for (const s of unsharedSecrets(ctx, entityId)) {
    const secret = ctx.secrets.open(s.secretSealed).toString('utf8');
    try {
      await entityLinks().callHosted(hosted.url, 'PUT', '/sync/v1/webhook-secrets', { token: hosted.token, body: { subscriptionId: s.subscriptionId, version: s.version, secret } });
    } catch (err) {
      // Refused (this device's role no longer manages webhooks): sync goes on; asked again next cycle.
      const status = entityLinks().hostedStatusOf(err);
      if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
        ctx.log.warn({ entityId, subscriptionId: s.subscriptionId, status }, 'webhook secret not accepted by the hosted instance');
        continue;
      }
      throw err;
    }
    markSecretShared(ctx, s.subscriptionId, s.version);
  }
  await fetchMissingSecrets(ctx, entityId, hosted);
}

/** The secrets in force of the subscriptions this device delivers that it does not hold (made or rotated elsewhere). */
async function fetchMissingSecrets(ctx: Context, entityId: string, hosted: { url: string; token: string }): Promise<void> {
  const device = ctx.events.linkedDevice(entityId);
  if (!device) return;
  const missing = ctx.db
    .select({ id: webhookSubscriptions.id, entityId: webhookSubscriptions.entityId, version: webhookSubscriptions.secretVersion, held: webhookSecrets.version })
    .from(webhookSubscriptions)
    .leftJoin(webhookSecrets, and(eq(webhookSecrets.subscriptionId, webhookSubscriptions.id), eq(webhookSecrets.version, webhookSubscriptions.secretVersion)))
    .where(and(eq(webhookSubscriptions.entityId, entityId), eq(webhookSubscriptions.deliveredBy, device)))
    .all()
    .filter((r) => r.held === null);
  for (const sub of missing) {
    try {
      const answer = await entityLinks().callHosted(hosted.url, 'GET', `/sync/v1/webhook-secrets/${sub.id}?version=${encodeURIComponent(sub.version)}`, { token: hosted.token, schema: fetched });
      write(ctx, (tx) => {
        storeSecret(ctx, tx, sub, answer.secret, sub.version);
        // It came from the hosted instance: nothing to send back.
        markSecretShared(ctx, sub.id, sub.version);
      });
    } catch (err) {
      // Not there yet (the device that made it has not synced since): asked again next cycle.
      if (entityLinks().hostedStatusOf(err) !== 404) throw err;
    }
  }
}
