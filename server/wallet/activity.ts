// The entity's shielded history rows: how they are written, shown and announced.
import { formatUnits } from 'viem';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import { walletActivity, type PaymentPurpose } from './tables.js';
import type { WalletEventType } from './events.js';

/** How long a proved bundle stays valid on chain (its extData deadline). */
export const BUNDLE_LIFETIME_SECONDS = 3600;

export type ActivityRow = typeof walletActivity.$inferSelect;
export type ActivityKind = ActivityRow['kind'];

export function presentActivity(row: ActivityRow) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    chain: row.chain,
    token: row.token,
    amount: row.amount,
    fee: row.fee,
    counterparty: row.counterparty,
    proofId: row.proofId,
    userOpHash: row.userOpHash,
    txHash: row.txHash,
    error: row.error,
    purpose: row.purpose ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type ActivityJson = ReturnType<typeof presentActivity>;

export function nullifierKey(nullifiers: readonly string[]): string {
  return [...nullifiers].map((n) => n.toLowerCase()).sort().join(',');
}

export interface NewActivity {
  entityId: string;
  chain: string;
  kind: ActivityKind;
  status: ActivityRow['status'];
  token: string;
  amount: bigint;
  fee?: bigint;
  counterparty?: string | null;
  proofId?: string | null;
  userOpHash?: string | null;
  txHash?: string | null;
  nullifiers?: string[];
  commitments?: string[];
  purpose?: PaymentPurpose | null;
}

export function insertActivity(ctx: Context, tx: Tx, a: NewActivity): ActivityRow {
  const now = nowIso(ctx);
  const nullifiers = a.nullifiers ?? [];
  const row: ActivityRow = {
    id: ctx.ids.next(),
    entityId: a.entityId,
    chain: a.chain,
    kind: a.kind,
    status: a.status,
    token: a.token,
    amount: a.amount.toString(),
    fee: (a.fee ?? 0n).toString(),
    counterparty: a.counterparty ?? null,
    proofId: a.proofId ?? null,
    userOpHash: a.userOpHash ?? null,
    txHash: a.txHash ?? null,
    nullifiers,
    nullifierKey: nullifiers.length ? nullifierKey(nullifiers) : null,
    commitments: a.commitments ?? [],
    error: null,
    purpose: a.purpose ?? null,
    createdAt: now,
    updatedAt: now,
  };
  tx.insert(walletActivity).values(row).run();
  return row;
}

const EVENT_OF: Record<ActivityKind, WalletEventType> = {
  shielded: 'transfer.shielded',
  sent: 'transfer.sent',
  received: 'transfer.received',
  unshielded: 'transfer.unshielded',
};

/** Records the domain event of a confirmed (or found) activity, in the caller's transaction. */
export function recordTransferEvent(ctx: Context, tx: Tx, row: ActivityRow): void {
  ctx.events.record(tx, { entityId: row.entityId, type: EVENT_OF[row.kind], data: { activity: presentActivity(row) } });
}

export function formatAmount(amount: string | bigint, decimals: number | null): string {
  return decimals === null ? amount.toString() : formatUnits(BigInt(amount), decimals);
}
