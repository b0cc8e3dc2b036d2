// Which install holds an entity's wallet. The keys never leave it (wallet_keys is secret); the
// holder row does, so every other device of the entity shows the wallet and its history
// read-only and refuses to create a second wallet for the same entity.
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { ConflictError } from '../http/errors.js';
import { entityLinks } from '../kernel/entity-links.js';
import { walletHolders, walletKeys } from './tables.js';

export class WalletHeldElsewhereError extends ConflictError {
  constructor() {
    super("This entity's wallet is held on another device: its history is shown here read-only, and payments are made on that device");
  }
}

/** This install's sync node id (made when the sync module starts). */
function thisNode(db: Queryable): string | null {
  return entityLinks().deviceNode(db);
}

export function walletHolder(db: Queryable, entityId: string) {
  return db.select().from(walletHolders).where(eq(walletHolders.entityId, entityId)).get() ?? null;
}

/** The holder when it is another install, else null. */
export function heldElsewhere(db: Queryable, entityId: string) {
  const holder = walletHolder(db, entityId);
  return holder && holder.node !== thisNode(db) ? holder : null;
}

/** Records this install as the holder of the entity's keys (once; wallets made before holders existed get theirs on first use). */
export function recordHolder(ctx: Context, db: Queryable, keys: typeof walletKeys.$inferSelect): void {
  const node = thisNode(db);
  if (!node || walletHolder(db, keys.entityId)) return;
  const now = nowIso(ctx);
  db.insert(walletHolders).values({ entityId: keys.entityId, node, shieldedAddress: keys.shieldedAddress, ownerAddress: keys.ownerAddress, createdAt: keys.createdAt, updatedAt: now }).run();
}
