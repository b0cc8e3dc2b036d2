// POST /api/privacy/unshield: prove a withdrawal of the entity's notes to a public address
// (default: the entity's smart account) and submit it through the relay path.
import { getAddress, isAddress, type Address } from 'viem';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Db } from '../db/open.js';
import { BadRequestError, HttpError } from '../http/errors.js';
import { planUnshield } from '../privacy/transaction.js';
import { parseAmount, parseToken } from './amounts.js';
import { requireChain } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { entityAccount, relayerAccount } from './accounts.js';
import { bundleDeadline, poolContext, proveTransaction } from './pool-tx.js';
import { assertCoverable, spendableNotes } from './spendable.js';
import { insertActivity } from './activity.js';
import { bundleOf } from './prove-transfer.js';
import { relayTransfer } from './relay.js';
import { pingBundler } from './bundler.js';
import { walletActivity } from './tables.js';

export interface UnshieldInput {
  token?: string;
  amount?: string;
  recipient?: string;
  chain?: string;
}

function parseRecipient(raw: string | undefined): Address | null {
  if (raw === undefined || raw === '') return null;
  if (!isAddress(raw, { strict: false }) || BigInt(raw) === 0n) throw new BadRequestError('recipient must be a public address (0x…)');
  return getAddress(raw);
}

export async function unshieldFunds(ctx: Context, entityId: string, input: UnshieldInput) {
  const wallet = loadEntityWallet(ctx, entityId);
  const amount = parseAmount(input.amount);
  const token = parseToken(input.token);
  const explicitRecipient = parseRecipient(input.recipient);
  const chain = requireChain(ctx, input.chain);
  const pool = await poolContext(ctx, chain);
  const notes = spendableNotes(ctx, entityId, chain.name, token, wallet.keys);
  assertCoverable(notes, amount);
  await pingBundler(chain);
  const recipient = explicitRecipient ?? (await entityAccount(ctx, chain, wallet)).address;
  const relayer = await relayerAccount(ctx, chain);
  const plan = planUnshield({ ctx: pool, keys: wallet.keys, token, amount, deadline: bundleDeadline(ctx), notes, recipient, relayer: relayer.address });
  const proved = await proveTransaction(ctx, plan);
  const proofId = ctx.ids.next();
  const activity = ctx.db.transaction((tx) =>
    insertActivity(ctx, tx as unknown as Db, {
      entityId,
      chain: chain.name,
      kind: 'unshielded',
      status: 'proved',
      token,
      amount,
      fee: proved.plan.extData.fee,
      counterparty: recipient,
      proofId,
      nullifiers: proved.nullifiers,
      commitments: proved.commitments,
    }),
  );
  let userOpHash: string;
  try {
    ({ userOpHash } = await relayTransfer(ctx, { ...bundleOf(proved), chain: chain.name }));
  } catch (err) {
    const error = err instanceof HttpError ? err.message : 'Submission failed';
    ctx.db.update(walletActivity).set({ status: 'failed', error, updatedAt: nowIso(ctx) }).where(eq(walletActivity.id, activity.id)).run();
    throw err;
  }
  return { success: true as const, proofId, userOpHash, chain: chain.name, token, amount: amount.toString(), recipient };
}
