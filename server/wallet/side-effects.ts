// What other areas hear about shielded transfers: a notification when funds arrive, and a ledger
// event (`transfer_shielded`) when funds move between the public wallet and the pool.
import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import { notify } from '../notifications/index.js';
import { postEvent } from '../ledger/index.js';
import type { ChainConfig } from './chains.js';
import { formatAmount, type ActivityRow } from './activity.js';
import { ledgerCurrency, type TokenInfo } from './tokens.js';
import { knownAccountAddress } from './accounts.js';
import { bookingOf } from './payment-booking.js';

/** Tells every member of the entity that shielded funds arrived (in the caller's transaction). */
export function announceReceived(ctx: Context, tx: Tx, row: ActivityRow, token: TokenInfo | null): void {
  const amount = formatAmount(row.amount, token?.decimals ?? null);
  const symbol = token?.symbol ?? row.token;
  notify(ctx, tx, {
    entityId: row.entityId,
    userId: null,
    type: 'transfer.received',
    title: `Received ${amount} ${symbol} privately`,
    body: `A shielded transfer on ${row.chain} is now spendable.`,
    link: '/wallet',
  });
}

/** The ledger event of a confirmed activity: its type and payload, in the token's ledger currency. */
function ledgerEventOf(ctx: Context, row: ActivityRow, chain: ChainConfig, currency: string, decimals: number): { type: string; payload: Record<string, unknown> } {
  const money = (v: string) => formatAmount(v, decimals);
  // The ledger syncs to the hosted instance, which may also be the relay others hide behind: a
  // movement through the pool is referenced by its wallet activity (its transaction stays in this
  // device's wallet history), and a private send names no shielded address. A shield spends from
  // our own public account, visible on chain anyway: it keeps its transaction hash.
  const common = { currency, amount: money(row.amount), chain: chain.name, reference: row.kind === 'shielded' ? (row.txHash ?? row.userOpHash ?? row.id) : `wallet-activity:${row.id}` };
  const fee = BigInt(row.fee) > 0n ? { fee: money(row.fee) } : {};
  switch (row.kind) {
    case 'shielded':
      return { type: 'transfer_shielded', payload: { direction: 'shield', ...common } };
    case 'received':
      return { type: 'private_payment_received', payload: common };
    case 'sent':
      return { type: 'private_payment_sent', payload: { ...common, ...fee, method: 'private_send', ...bookingOf(row.purpose) } };
    case 'unshielded': {
      // To our own smart account the funds stay ours (a transfer); to any other address they are a payment out.
      const own = knownAccountAddress(ctx, row.entityId, chain.name);
      if (own && row.counterparty && own.toLowerCase() === row.counterparty.toLowerCase()) return { type: 'transfer_shielded', payload: { direction: 'unshield', ...common, ...fee } };
      return { type: 'private_payment_sent', payload: { ...common, ...fee, method: 'unshield', ...(row.counterparty ? { counterparty: row.counterparty } : {}), ...bookingOf(row.purpose) } };
    }
  }
}

/** The ledger key of an activity's booking; one mined again after a reorganisation is keyed by its new block. */
export function activityLedgerKey(activityId: string, block: string | null = null): string {
  return block ? `wallet-activity:${activityId}:${block}` : `wallet-activity:${activityId}`;
}

/**
 * Posts a confirmed movement to the ledger, idempotent per activity: shield and unshield to our
 * own account as transfers, a private send or an unshield to someone else as a payment out (booked
 * for what the sender said it pays, else to Uncategorised payments), a receipt as a payment in
 * (to Uncategorised receipts until someone says what it was) — so the Shielded funds account always equals the spendable balance.
 * A ledger failure (unknown currency, a ledger not set up) must not undo the wallet's own
 * bookkeeping: it is logged and skipped.
 */
export function postLedgerTransfer(ctx: Context, _tx: Tx, row: ActivityRow, chain: ChainConfig, token: TokenInfo | null, block: string | null = null): void {
  const currency = token ? ledgerCurrency(token) : null;
  if (!currency || token?.decimals === null || token?.decimals === undefined) {
    ctx.log.warn({ activityId: row.id, chain: chain.name }, 'shielded transfer not posted to the ledger: token has no usable symbol/decimals');
    return;
  }
  try {
    const { type, payload } = ledgerEventOf(ctx, row, chain, currency, token.decimals);
    postEvent(ctx, row.entityId, { type, payload, idempotencyKey: activityLedgerKey(row.id, block), source: 'privacy' }, { source: 'privacy' });
  } catch (err) {
    ctx.log.warn({ activityId: row.id, err: (err as Error).message }, 'shielded transfer not posted to the ledger');
  }
}
