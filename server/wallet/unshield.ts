// POST /api/privacy/unshield: prove a withdrawal of the entity's notes to a public address
// (default: the entity's smart account) and submit it through the relay path.
import type { Address } from 'viem';
import { checksumAddress, publicAddressProblem } from './address.js';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { BadRequestError, HttpError } from '../http/errors.js';
import { planUnshield } from '../privacy/transaction.js';
import { parseAmount, parseToken } from './amounts.js';
import { requireChain } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { entityAccount } from './accounts.js';
import { poolContext, proveTransaction } from './pool-tx.js';
import { chooseRelay } from './hosted-relay.js';
import { assertCoverable, spendableNotes } from './spendable.js';
import { insertActivity } from './activity.js';
import { checkPaymentPurpose } from './payment-purpose.js';
import type { PaymentPurpose } from './tables.js';
import { bundleOf } from './prove-transfer.js';
import { relayTransfer } from './relay.js';
import { pingBundler } from './bundler.js';
import { walletActivity } from './tables.js';

export interface UnshieldInput {
  token?: string;
  amount?: string;
  recipient?: string;
  chain?: string;
  purpose?: PaymentPurpose;
}

function parseRecipient(raw: string | undefined): Address | null {
  if (raw === undefined || raw === '') return null;
  const problem = publicAddressProblem(raw);
  if (problem) throw new BadRequestError(`recipient: ${problem}`);
  return checksumAddress(raw.trim());
}

export async function unshieldFunds(ctx: Context, entityId: string, input: UnshieldInput) {
  const wallet = loadEntityWallet(ctx, entityId);
  const amount = parseAmount(input.amount);
  const token = parseToken(input.token);
  const explicitRecipient = parseRecipient(input.recipient);
  const purpose = checkPaymentPurpose(ctx, entityId, input.purpose);
  const chain = requireChain(ctx, input.chain);
  const pool = await poolContext(ctx, chain);
  const notes = spendableNotes(ctx, entityId, chain.name, token, wallet.keys);
  assertCoverable(notes, amount);
  await pingBundler(chain);
  const recipient = explicitRecipient ?? (await entityAccount(ctx, chain, wallet)).address;
  // A linked entity's withdrawal goes through its hosted relay too; the fee comes from its notes.
  const relay = await chooseRelay(ctx, entityId, chain, token);
  assertCoverable(notes, amount + relay.fee);
  const plan = planUnshield({ ctx: pool, keys: wallet.keys, token, amount, deadline: relay.deadline, notes, recipient, relayer: relay.relayer, fee: relay.fee });
  const proved = await proveTransaction(ctx, plan);
  const proofId = ctx.ids.next();
  const activity = write(ctx, (tx) =>
    insertActivity(ctx, tx, {
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
      purpose,
    }),
  );
  let relayed: Awaited<ReturnType<typeof relayTransfer>>;
  try {
    relayed = await relayTransfer(ctx, { ...bundleOf(proved, relay), chain: chain.name });
  } catch (err) {
    const error = err instanceof HttpError ? err.message : 'Submission failed';
    ctx.db.update(walletActivity).set({ status: 'failed', error, updatedAt: nowIso(ctx) }).where(eq(walletActivity.id, activity.id)).run();
    throw err;
  }
  const { userOpHash, via, jobId } = relayed;
  return { success: true as const, proofId, userOpHash, chain: chain.name, token, amount: amount.toString(), recipient, ...(via ? { via, jobId, relayer: relay.relayer, fee: relay.fee.toString() } : {}) };
}
