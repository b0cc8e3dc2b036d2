// POST /api/privacy/shield: deposit public funds of the entity's smart account into a new note.
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { planShield } from '../privacy/index.js';
import { isNative, parseAmount, parseToken } from './amounts.js';
import { BaseError, erc20Abi, type Address } from 'viem';
import { publicClientFor } from './clients.js';
import type { ChainConfig } from './chains.js';
import { InsufficientPublicBalanceError } from './errors.js';
import { requireChain } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { entityAccount } from './accounts.js';
import { pingBundler, sendCalls } from './bundler.js';
import { bundleDeadline, depositCalls, poolContext, proveTransaction } from './pool-tx.js';
import { insertActivity } from './activity.js';
import { walletActivity } from './tables.js';
import { BadGatewayError, HttpError } from '../http/errors.js';

export interface ShieldInput {
  token?: string;
  amount?: string;
  chain?: string;
}

/**
 * Gas a shield's UserOperation may take at most (account creation on the first one, the deposit
 * and its proof check): the fee estimate before proving. The bundler's own estimate comes later,
 * and needs the proof.
 */
const SHIELD_GAS = 1_500_000n;

/** Refuses, before seconds of proving, to shield more than the business account holds. */
async function assertPublicFunds(chain: ChainConfig, address: Address, token: Address, amount: bigint) {
  const client = publicClientFor(chain);
  let native: bigint;
  let fee: bigint;
  let held: bigint;
  try {
    // A paymaster pays the network fee: the account needs only the amount.
    fee = chain.paymasterUrl ? 0n : (await client.estimateFeesPerGas()).maxFeePerGas * SHIELD_GAS;
    native = await client.getBalance({ address });
    held = isNative(token) ? native : await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  } catch (err) {
    throw new BadGatewayError(`The chain's RPC could not be reached: ${err instanceof BaseError ? err.shortMessage : String(err)}`);
  }
  if (isNative(token) ? held < amount + fee : held < amount || native < fee) {
    throw new InsufficientPublicBalanceError({ token, available: held, requested: amount, fee, ...(isNative(token) ? {} : { feeAvailable: native }) });
  }
}

export async function shieldFunds(ctx: Context, entityId: string, input: ShieldInput) {
  const wallet = loadEntityWallet(ctx, entityId);
  const amount = parseAmount(input.amount);
  const token = parseToken(input.token);
  const chain = requireChain(ctx, input.chain);
  await pingBundler(chain);
  const account = await entityAccount(ctx, chain, wallet);
  await assertPublicFunds(chain, account.address, token, amount);
  const pool = await poolContext(ctx, chain);
  const plan = planShield({ ctx: pool, keys: wallet.keys, token, amount, deadline: bundleDeadline(ctx) });
  const proved = await proveTransaction(ctx, plan);
  // Recorded before submission so the indexer never mistakes our own new note for a received one.
  const activity = write(ctx, (tx) =>
    insertActivity(ctx, tx, { entityId, chain: chain.name, kind: 'shielded', status: 'proved', token, amount, counterparty: account.address, commitments: proved.commitments }),
  );
  let userOpHash: string;
  try {
    userOpHash = await sendCalls(chain, account, depositCalls(chain, token, amount, proved));
  } catch (err) {
    const error = err instanceof HttpError ? `${err.message}${err.details ? `: ${JSON.stringify(err.details)}` : ''}` : 'Submission failed';
    ctx.db.update(walletActivity).set({ status: 'failed', error, updatedAt: nowIso(ctx) }).where(eq(walletActivity.id, activity.id)).run();
    throw err;
  }
  ctx.db.update(walletActivity).set({ status: 'submitted', userOpHash, updatedAt: nowIso(ctx) }).where(eq(walletActivity.id, activity.id)).run();
  return { success: true as const, userOpHash, noteCommitment: proved.commitments[0], chain: chain.name, token, amount: amount.toString() };
}
