import crypto from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { webhookSubscriptions } from './tables.js';
import { storeSecret } from './secrets.js';
import { chooseDeliverer, isLocalTarget } from './deliverer.js';
import { allowsLocalTargets } from './settings.js';
import { BlockedTargetError, checkTargetStatically } from './targets.js';
import type { CreateSubscriptionInput, UpdateSubscriptionInput } from './schemas.js';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

export function presentSubscription({ secretVersion: _s, ...rest }: SubscriptionRow) {
  return rest;
}

export function findSubscription(db: Queryable, entityId: string, subscriptionId: string): SubscriptionRow {
  const row = db.select().from(webhookSubscriptions).where(and(eq(webhookSubscriptions.entityId, entityId), eq(webhookSubscriptions.id, subscriptionId))).get();
  if (!row) throw new NotFoundError('Webhook subscription not found');
  return row;
}

/** A Standard Webhooks secret: `whsec_` + 24 random bytes in base64 (as Svix issues them). */
export function generateWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

function assertTargetAllowed(ctx: Context, entityId: string, url: string) {
  try {
    checkTargetStatically(new URL(url), allowsLocalTargets(ctx, entityId));
  } catch (err) {
    if (err instanceof BlockedTargetError) throw new BadRequestError(`url: ${err.message}`);
    throw err;
  }
}

export function listSubscriptions(ctx: Context, entityId: string) {
  return ctx.db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.entityId, entityId))
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id))
    .all()
    .map(presentSubscription);
}

export function getSubscription(ctx: Context, entityId: string, subscriptionId: string) {
  return presentSubscription(findSubscription(ctx.db, entityId, subscriptionId));
}

export function createSubscription(ctx: Context, entityId: string, input: CreateSubscriptionInput) {
  assertTargetAllowed(ctx, entityId, input.url);
  const now = nowIso(ctx);
  const secret = input.secret ?? generateWebhookSecret();
  const id = ctx.ids.next();
  const row: SubscriptionRow = {
    id,
    entityId,
    url: input.url,
    events: input.events,
    secretVersion: id,
    deliveredBy: chooseDeliverer(ctx, entityId, input.url, input.deliveredBy),
    description: input.description ?? null,
    enabled: input.enabled,
    disabledReason: input.enabled ? null : 'Disabled by a member',
    disabledAt: input.enabled ? null : now,
    failingSince: null,
    metadata: input.metadata,
    createdAt: now,
    updatedAt: now,
  };
  write(ctx, (tx) => {
    tx.insert(webhookSubscriptions).values(row).run();
    storeSecret(ctx, tx, row, secret, row.secretVersion);
  });
  return { ...presentSubscription(row), secret };
}

export function updateSubscription(ctx: Context, entityId: string, input: UpdateSubscriptionInput) {
  if (input.url) assertTargetAllowed(ctx, entityId, input.url);
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const row = { ...findSubscription(tx, entityId, input.subscriptionId), updatedAt: now };
    if (input.url !== undefined) row.url = input.url;
    if (input.events !== undefined) row.events = input.events;
    if (input.description !== undefined) row.description = input.description;
    if (input.metadata !== undefined) row.metadata = input.metadata;
    if (input.secret !== undefined) row.secretVersion = storeSecret(ctx, tx, row, input.secret);
    if (input.deliveredBy !== undefined || input.url !== undefined) row.deliveredBy = chooseDeliverer(ctx, entityId, row.url, input.deliveredBy ?? keptDeliverer(ctx, row));
    if (input.enabled === true && !row.enabled) Object.assign(row, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    if (input.enabled === false && row.enabled) Object.assign(row, { enabled: false, disabledReason: 'Disabled by a member', disabledAt: now });
    const { id: _id, entityId: _e, ...set } = row;
    tx.update(webhookSubscriptions).set(set).where(and(eq(webhookSubscriptions.entityId, entityId), eq(webhookSubscriptions.id, row.id))).run();
    return presentSubscription(row);
  });
}

/** On a URL change the deliverer stays unless the hosted instance could not reach the new URL (then the default). */
function keptDeliverer(ctx: Context, row: SubscriptionRow): string | undefined {
  if (row.deliveredBy === null) return undefined;
  if (row.deliveredBy === 'hosted') return isLocalTarget(row.url) ? undefined : 'hosted';
  return row.deliveredBy === ctx.events.linkedDevice(row.entityId) ? 'this-device' : row.deliveredBy;
}

/** Deletes the subscription with its delivery log; deliveries not yet made are dropped. */
export function deleteSubscription(ctx: Context, entityId: string, subscriptionId: string) {
  findSubscription(ctx.db, entityId, subscriptionId);
  ctx.db.delete(webhookSubscriptions).where(and(eq(webhookSubscriptions.entityId, entityId), eq(webhookSubscriptions.id, subscriptionId))).run();
  return { deleted: true, id: subscriptionId };
}
