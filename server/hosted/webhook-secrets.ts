// Webhook signing secrets on the hosted instance: a device sends the secrets it makes over its
// own device-authenticated endpoint (never through the log, which every device reads); they are
// stored sealed with this instance's key and used to sign what it delivers. A device named as a
// subscription's deliverer may fetch the secret in force; no other caller ever gets one back.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { NotFoundError } from '../http/errors.js';
import { safeText } from '../http/safe-text.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { mirroredRow } from './mirror.js';
import { webhookSecrets } from './schema.js';
import type { HostedTx } from './store.js';

export const webhookSecretBody = z.strictObject({
  subscriptionId: z.uuid('must be a UUID'),
  version: safeText().min(1).max(100),
  secret: z.string('must be a string').regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be a whsec_ secret').max(200),
});
export const webhookSecretParams = z.object({ subscriptionId: z.uuid('must be a UUID') });
export const webhookSecretQuery = z.object({ version: safeText().min(1).max(100) });
export const webhookSecretAnswer = z.object({ secret: z.string() });

/** Stores (or replaces) one version of a subscription's secret for the caller's entity. */
export async function storeWebhookSecret(h: HostedContext, device: DeviceAuth, body: z.output<typeof webhookSecretBody>): Promise<void> {
  const secretSealed = h.secrets.seal(body.secret);
  await h.store.db
    .insert(webhookSecrets)
    .values({ entityId: device.entityId, subscriptionId: body.subscriptionId, version: body.version, secretSealed, createdAt: serverTime(h) })
    .onConflictDoUpdate({ target: [webhookSecrets.entityId, webhookSecrets.subscriptionId, webhookSecrets.version], set: { secretSealed } });
}

/** The secret of a subscription at a version, opened, or null when no device has sent it. */
export async function hostedSecretOf(h: HostedContext, tx: HostedTx, entityId: string, subscriptionId: string, version: string): Promise<string | null> {
  const [row] = await tx
    .select({ sealed: webhookSecrets.secretSealed })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.entityId, entityId), eq(webhookSecrets.subscriptionId, subscriptionId), eq(webhookSecrets.version, version)));
  return row ? h.secrets.open(row.sealed).toString('utf8') : null;
}

/** The secret in force for the device the subscription names as its deliverer; 404 for anyone else (nothing said about whether it exists). */
export async function webhookSecretForDeliverer(h: HostedContext, device: DeviceAuth, subscriptionId: string, version: string): Promise<{ secret: string }> {
  const secret = await h.store.db.transaction(async (tx) => {
    const sub = await mirroredRow(tx, device.entityId, 'webhook_subscriptions', subscriptionId);
    if (!sub || sub.delivered_by !== device.deviceId || sub.secret_version !== version) return null;
    return hostedSecretOf(h, tx, device.entityId, subscriptionId, version);
  });
  if (secret === null) throw new NotFoundError('No secret for this device');
  return { secret };
}
