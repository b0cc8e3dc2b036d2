// An entity's wallet secrets: the shielded seed (spending + viewing keys) and the owner key of
// its smart account, both sealed with the server's SecretBox. Plaintext keys live only in memory
// for the duration of a use case.
import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { deriveKeys, generateSeed, type ShieldedKeys, encodeAddress } from '../privacy/index.js';
import { walletKeys } from './tables.js';
import { PrivacyNotInitializedError, WalletKeysUnavailableError } from './errors.js';
import { heldElsewhere, recordHolder, WalletHeldElsewhereError } from './holder.js';

export interface EntityWallet {
  entityId: string;
  keys: ShieldedKeys;
  ownerKey: Hex;
  ownerAddress: Hex;
  shieldedAddress: string;
}

export interface WalletIdentity {
  shieldedAddress: string;
  ownerAddress: string;
  createdAt: string;
  /** False when the entity had already been initialized (the call is idempotent). */
  created: boolean;
}

/** Creates the entity's keys once; later calls return the same identity. */
export function initializeKeys(ctx: Context, entityId: string): WalletIdentity {
  return write(ctx, (tx) => {
    const existing = tx.select().from(walletKeys).where(eq(walletKeys.entityId, entityId)).get();
    if (!existing && heldElsewhere(tx, entityId)) throw new WalletHeldElsewhereError();
    if (existing) recordHolder(ctx, tx, existing);
    if (existing) return { shieldedAddress: existing.shieldedAddress, ownerAddress: existing.ownerAddress, createdAt: existing.createdAt, created: false };
    const seed = generateSeed();
    const keys = deriveKeys(seed);
    const ownerKey = generatePrivateKey();
    const row = {
      entityId,
      seedSealed: ctx.secrets.seal(Buffer.from(seed)),
      ownerKeySealed: ctx.secrets.seal(ownerKey),
      ownerAddress: privateKeyToAddress(ownerKey),
      shieldedAddress: encodeAddress({ pubkey: keys.pubkey, viewingPublicKey: keys.viewingPublicKey }),
      createdAt: nowIso(ctx),
    };
    tx.insert(walletKeys).values(row).run();
    recordHolder(ctx, tx, row);
    return { shieldedAddress: row.shieldedAddress, ownerAddress: row.ownerAddress, createdAt: row.createdAt, created: true };
  });
}

export function findIdentity(ctx: Context, entityId: string): Omit<WalletIdentity, 'created'> | null {
  const row = ctx.db.select().from(walletKeys).where(eq(walletKeys.entityId, entityId)).get();
  return row ? { shieldedAddress: row.shieldedAddress, ownerAddress: row.ownerAddress, createdAt: row.createdAt } : null;
}

/** Opens the entity's sealed keys; `Privacy not initialized` when there are none. */
export function loadEntityWallet(ctx: Context, entityId: string): EntityWallet {
  const row = ctx.db.select().from(walletKeys).where(eq(walletKeys.entityId, entityId)).get();
  if (!row) throw heldElsewhere(ctx.db, entityId) ? new WalletHeldElsewhereError() : new PrivacyNotInitializedError();
  recordHolder(ctx, ctx.db, row);
  return openWalletRow(ctx, row);
}

export function openWalletRow(ctx: Context, row: typeof walletKeys.$inferSelect): EntityWallet {
  let seed: Uint8Array;
  let ownerKey: Hex;
  try {
    seed = new Uint8Array(ctx.secrets.open(row.seedSealed));
    ownerKey = ctx.secrets.open(row.ownerKeySealed).toString('utf8') as Hex;
  } catch {
    throw new WalletKeysUnavailableError();
  }
  return { entityId: row.entityId, keys: deriveKeys(seed), ownerKey, ownerAddress: row.ownerAddress as Hex, shieldedAddress: row.shieldedAddress };
}

/** Whether this install can open the entity's keys (false: restored or imported without the passphrase). */
export function walletKeysOpen(ctx: Context, row: typeof walletKeys.$inferSelect): boolean {
  try {
    ctx.secrets.open(row.seedSealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every initialized entity's viewing side, for the indexer; a wallet whose keys this install
 * cannot open is left out (indexing the others goes on).
 */
export function listEntityWallets(ctx: Context): EntityWallet[] {
  return ctx.db
    .select()
    .from(walletKeys)
    .all()
    .filter((row) => walletKeysOpen(ctx, row))
    .map((row) => openWalletRow(ctx, row));
}
