// The signing secrets this device holds. A subscription row (synced) names the version in force;
// the secret itself is sealed here with this device's key and never enters the sync log. The
// hosted instance gets it through its own device-authenticated endpoint (see README.md).
import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import { webhookSecrets } from './tables.js';

/** Seals a new secret version for a subscription; returns the version to put on its row. */
export function storeSecret(ctx: Context, tx: Tx, sub: { id: string; entityId: string }, secret: string, version = ctx.ids.next()): string {
  tx.insert(webhookSecrets)
    .values({ subscriptionId: sub.id, version, entityId: sub.entityId, secretSealed: ctx.secrets.seal(secret), sharedAt: null })
    .onConflictDoUpdate({ target: [webhookSecrets.subscriptionId, webhookSecrets.version], set: { secretSealed: ctx.secrets.seal(secret) } })
    .run();
  return version;
}

/** The secret in force for a subscription, when this device holds it. */
export function secretOf(ctx: Context, sub: { id: string; secretVersion: string }): string | null {
  const row = ctx.db.select().from(webhookSecrets).where(and(eq(webhookSecrets.subscriptionId, sub.id), eq(webhookSecrets.version, sub.secretVersion))).get();
  return row ? ctx.secrets.open(row.secretSealed).toString('utf8') : null;
}

/** The secrets of an entity the hosted instance has not received yet. */
export function unsharedSecrets(ctx: Context, entityId: string) {
  return ctx.db.select().from(webhookSecrets).where(and(eq(webhookSecrets.entityId, entityId), isNull(webhookSecrets.sharedAt))).all();
}

export function markSecretShared(ctx: Context, subscriptionId: string, version: string): void {
  ctx.db.update(webhookSecrets).set({ sharedAt: nowIso(ctx) }).where(and(eq(webhookSecrets.subscriptionId, subscriptionId), eq(webhookSecrets.version, version))).run();
}
