import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import type { IndexerSnapshot } from '../privacy/index.js';
import type { PaymentPurpose } from '../shared/wallet/payment-booking.js';

/**
 * One row per entity that initialized privacy. The shielded seed (spending + viewing keys) and
 * the smart-account owner key are sealed with the server's SecretBox; only public values are
 * stored in the clear.
 */
export const walletKeys = sqliteTable('wallet_keys', {
  entityId: text('entity_id').primaryKey(),
  seedSealed: text('seed_sealed').notNull(),
  ownerKeySealed: text('owner_key_sealed').notNull(),
  ownerAddress: text('owner_address').notNull(),
  shieldedAddress: text('shielded_address').notNull(),
  createdAt: text('created_at').notNull(),
});

/**
 * Which install holds the entity's wallet keys (its sync node id) and the wallet's public
 * addresses. Synced: the other devices of the entity show the wallet and its history read-only,
 * and never create a second wallet for it.
 */
export const walletHolders = sqliteTable('wallet_holders', {
  entityId: text('entity_id').primaryKey(),
  node: text('node').notNull(),
  shieldedAddress: text('shielded_address').notNull(),
  ownerAddress: text('owner_address').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** The entity's SimpleAccount address per chain (counterfactual until its first UserOperation). */
export const walletAccounts = sqliteTable(
  'wallet_accounts',
  {
    entityId: text('entity_id').notNull(),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.chain] })],
);

/**
 * Relayers: an owner key (sealed) per chain and entity whose SimpleAccount submits relayed
 * bundles. Each entity has its own, so unlinked businesses of one install are not tied together
 * on chain by a shared relayer; `entity_id` '' is the install's own, for bundles not proved here.
 */
export const walletRelayers = sqliteTable(
  'wallet_relayers',
  {
    chain: text('chain').notNull(),
    entityId: text('entity_id').notNull().default(''),
    ownerKeySealed: text('owner_key_sealed').notNull(),
    accountAddress: text('account_address').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.entityId] })],
);

/**
 * The relay payload of a send or unshield proved on this install, kept on this device so a relay
 * that failed can be tried again with the same proof (while its root is still the pool's), and
 * why the last relay attempt failed (the activity then stays `proved`, with Try again).
 */
export const walletBundles = sqliteTable('wallet_bundles', {
  activityId: text('activity_id').primaryKey(),
  entityId: text('entity_id').notNull(),
  chain: text('chain').notNull(),
  bundle: text('bundle', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  relayError: text('relay_error'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** Notes an entity owns (decrypted, re-hashed to their on-chain commitment). Amounts are decimal strings of base units. */
export const walletNotes = sqliteTable(
  'wallet_notes',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    chain: text('chain').notNull(),
    token: text('token').notNull(),
    amount: text('amount').notNull(),
    blinding: text('blinding').notNull(),
    commitment: text('commitment').notNull(),
    leafIndex: integer('leaf_index').notNull(),
    nullifier: text('nullifier').notNull(),
    txHash: text('tx_hash').notNull(),
    /** When the indexer saw the note's nullifier on chain. */
    spentAt: text('spent_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('wallet_notes_commitment_idx').on(t.entityId, t.chain, t.commitment), index('wallet_notes_unspent_idx').on(t.entityId, t.chain, t.token, t.spentAt)],
);

export const ACTIVITY_KINDS = ['shielded', 'sent', 'received', 'unshielded'] as const;
export const ACTIVITY_STATUSES = ['proved', 'submitted', 'confirmed', 'failed'] as const;

/** The entity's shielded history: what it shielded, sent, received and unshielded. */
/** What a private payment out paid: a bill, an expense (account code), one of our own businesses, an owner drawing. */
export type { PaymentPurpose };

export const walletActivity = sqliteTable(
  'wallet_activity',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    chain: text('chain').notNull(),
    kind: text('kind', { enum: ACTIVITY_KINDS }).notNull(),
    status: text('status', { enum: ACTIVITY_STATUSES }).notNull(),
    token: text('token').notNull(),
    amount: text('amount').notNull(),
    /** Relayer fee paid from the shielded funds on top of the amount (base units). */
    fee: text('fee').notNull().default('0'),
    /** Shielded address (sent) or public address (unshielded) of the other side, when known. */
    counterparty: text('counterparty'),
    proofId: text('proof_id'),
    userOpHash: text('user_op_hash'),
    txHash: text('tx_hash'),
    /** JSON arrays of hex: the nullifiers this activity spends and the commitments it creates. */
    nullifiers: text('nullifiers', { mode: 'json' }).notNull().$type<string[]>(),
    /** Sorted nullifiers joined by ',': links a relayed bundle back to the proof that made it. */
    nullifierKey: text('nullifier_key'),
    commitments: text('commitments', { mode: 'json' }).notNull().$type<string[]>(),
    error: text('error'),
    /** What a payment out was for, as the sender said (booked with it when it confirms); null: not said yet. */
    purpose: text('purpose', { mode: 'json' }).$type<PaymentPurpose>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('wallet_activity_entity_idx').on(t.entityId, t.createdAt, t.id), uniqueIndex('wallet_activity_proof_idx').on(t.proofId), index('wallet_activity_nullifier_idx').on(t.nullifierKey)],
);

/** Bundles this relayer submitted, keyed on their nullifiers: a resubmission is answered with the first result. */
export const walletRelays = sqliteTable(
  'wallet_relays',
  {
    id: text('id').primaryKey(),
    chain: text('chain').notNull(),
    /** Sorted nullifiers joined by ',' */
    nullifierKey: text('nullifier_key').notNull(),
    userOpHash: text('user_op_hash').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('wallet_relays_nullifiers_idx').on(t.chain, t.nullifierKey)],
);

/** The chain indexer's state (library snapshot), so a restart resumes instead of rescanning the pool. */
export const walletIndexerSnapshots = sqliteTable('wallet_indexer_snapshots', {
  chain: text('chain').primaryKey(),
  /** chainId|pool the snapshot belongs to (older rows: chainId|pool|rpc); another chain id or pool under the name is a reset. */
  stateKey: text('state_key').notNull(),
  snapshot: text('snapshot', { mode: 'json' }).notNull().$type<IndexerSnapshot>(),
  leaves: integer('leaves').notNull(),
  nullifiers: integer('nullifiers').notNull(),
  updatedAt: text('updated_at').notNull(),
});
