// What other areas hear about shielded transfers: a notification when funds arrive, and a ledger
// event (`transfer_shielded`) when funds move between the public wallet and the pool.
import type { Context } from '../context.js';
import type { Db } from '../db/open.js';
import { notify } from '../notifications/notifications.js';
import { postEvent } from '../ledger/index.js';
import type { ChainConfig } from './chains.js';
import { formatAmount, type ActivityRow } from './activity.js';
import { ledgerCurrency, type TokenInfo } from './tokens.js';

/** Tells every member of the entity that shielded funds arrived (in the caller's transaction). */
export function announceReceived(ctx: Context, tx: Db, row: ActivityRow, token: TokenInfo | null): void {
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

/**
 * Posts the move to the ledger, idempotent per activity. A ledger failure (unknown currency, a
 * ledger not set up) must not undo the wallet's own bookkeeping: it is logged and skipped.
 */
export function postLedgerTransfer(ctx: Context, _tx: Db, row: ActivityRow, chain: ChainConfig, token: TokenInfo | null): void {
  const currency = token ? ledgerCurrency(token) : null;
  if (!currency || token?.decimals === null || token?.decimals === undefined) {
    ctx.log.warn({ activityId: row.id, chain: chain.name }, 'shielded transfer not posted to the ledger: token has no usable symbol/decimals');
    return;
  }
  try {
    postEvent(
      ctx,
      row.entityId,
      {
        type: 'transfer_shielded',
        payload: {
          direction: row.kind === 'shielded' ? 'shield' : 'unshield',
          currency,
          amount: formatAmount(row.amount, token.decimals),
          chain: chain.name,
          reference: row.txHash ?? row.userOpHash ?? row.id,
        },
        idempotencyKey: `wallet-activity:${row.id}`,
        source: 'privacy',
      },
      { source: 'privacy' },
    );
  } catch (err) {
    ctx.log.warn({ activityId: row.id, err: (err as Error).message }, 'shielded transfer not posted to the ledger');
  }
}
