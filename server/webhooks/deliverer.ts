// Who delivers a subscription: exactly one deliverer per subscription, so every event reaches
// it once. `hosted` (always on; the default for public URLs), one device by id (targets only
// that machine reaches), or null while the entity is not linked (this install).
import { inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { webhookSubscriptions } from './tables.js';
import { BadRequestError } from '../http/errors.js';
import { checkTargetStatically } from './targets.js';

export const HOSTED_DELIVERER = 'hosted';

/** Whether this device sends a subscription's deliveries. */
export function deliversHere(ctx: Context, sub: { entityId: string; deliveredBy: string | null }): boolean {
  const device = ctx.events.linkedDevice(sub.entityId);
  // Not linked: nobody else can deliver, whatever the row says.
  return !device || sub.deliveredBy === device;
}

/** The SQL twin of `deliversHere` over `webhook_subscriptions`: what this device's worker may send. */
export function deliverersHere(ctx: Context): SQL {
  const linked = ctx.events.linkedEntities();
  if (linked.size === 0) return sql`1 = 1`;
  return or(notInArray(webhookSubscriptions.entityId, [...linked.keys()]), inArray(webhookSubscriptions.deliveredBy, [...new Set(linked.values())]))!;
}

/** A loopback, private or `.local`-style address: only a device on that network reaches it. */
export function isLocalTarget(url: string): boolean {
  try {
    checkTargetStatically(new URL(url), false);
    return false;
  } catch {
    return true;
  }
}

/**
 * The deliverer a create or update asks for (`hosted`, `this-device` or a device id), or the
 * default: the hosted instance for public URLs, this device for local ones.
 */
export function chooseDeliverer(ctx: Context, entityId: string, url: string, asked: string | undefined): string | null {
  const device = ctx.events.linkedDevice(entityId);
  if (!device) {
    if (asked !== undefined && asked !== 'this-device') throw new BadRequestError('deliveredBy: this entity is not linked to a hosted instance, so this device delivers its webhooks');
    return null;
  }
  // Asked for explicitly, `hosted` stands even for a local address (an instance on the same network,
  // allowed to reach it): the hosted instance's own guard decides, and its refusals show in the log.
  return asked === undefined ? (isLocalTarget(url) ? device : HOSTED_DELIVERER) : asked === 'this-device' ? device : asked;
}
