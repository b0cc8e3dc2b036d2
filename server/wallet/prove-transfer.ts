// POST /api/privacy/prove-transfer: spend the entity's notes to a shielded address, proved on
// this device. Returns the bundle the relay submits; nothing reaches the chain here.
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import { BadRequestError } from '../http/errors.js';
import { decodeAddress, shieldedAddressProblem, type ShieldedAddress } from '../privacy/address.js';
import { planTransfer } from '../privacy/transaction.js';
import { parseAmount, parseToken } from './amounts.js';
import { requireChain } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { poolContext, proveTransaction, type ProvedTransaction } from './pool-tx.js';
import { chooseRelay, type RelayChoice } from './hosted-relay.js';
import { assertCoverable, spendableNotes } from './spendable.js';
import { insertActivity } from './activity.js';
import { checkPaymentPurpose } from './payment-purpose.js';
import type { PaymentPurpose } from './tables.js';

export interface ProveTransferInput {
  recipientAddress: string;
  token?: string;
  amount?: string;
  chain?: string;
  purpose?: PaymentPurpose;
}

function parseRecipient(text: string): ShieldedAddress {
  const problem = shieldedAddressProblem(text);
  if (problem) throw new BadRequestError(`recipientAddress: ${problem}`);
  return decodeAddress(text.trim());
}

export async function proveTransfer(ctx: Context, entityId: string, input: ProveTransferInput) {
  const wallet = loadEntityWallet(ctx, entityId);
  const amount = parseAmount(input.amount);
  const token = parseToken(input.token);
  const to = parseRecipient(input.recipientAddress);
  const purpose = checkPaymentPurpose(ctx, entityId, input.purpose);
  const chain = requireChain(ctx, input.chain);
  const pool = await poolContext(ctx, chain);
  const notes = spendableNotes(ctx, entityId, chain.name, token, wallet.keys);
  assertCoverable(notes, amount);
  // A linked entity proves on its hosted relay's quote: the fee comes from its notes, on top of the amount.
  const relay = await chooseRelay(ctx, entityId, chain, token);
  assertCoverable(notes, amount + relay.fee);
  const plan = planTransfer({ ctx: pool, keys: wallet.keys, token, amount, deadline: relay.deadline, notes, to, relayer: relay.relayer, fee: relay.fee });
  const proved = await proveTransaction(ctx, plan);
  const proofId = ctx.ids.next();
  write(ctx, (tx) =>
    insertActivity(ctx, tx, {
      entityId,
      chain: chain.name,
      kind: 'sent',
      status: 'proved',
      token,
      amount,
      fee: proved.plan.extData.fee,
      counterparty: input.recipientAddress.trim(),
      proofId,
      nullifiers: proved.nullifiers,
      commitments: proved.commitments,
      purpose,
    }),
  );
  return { success: true as const, proofId, ...bundleOf(proved, relay), chain: chain.name };
}

/** The relay payload of a proved transaction: the spec's fields and the external data the proof binds. */
export function bundleOf(proved: ProvedTransaction, relay?: RelayChoice) {
  const ext = proved.plan.extData;
  return {
    proof: proved.proofHex,
    root: proved.root,
    nullifierHashes: proved.nullifiers,
    newCommitments: proved.commitments,
    encryptedNotesRecipient: [...ext.encryptedNotesRecipient],
    encryptedNotesSender: [...ext.encryptedNotesSender],
    token: ext.token as string,
    recipient: ext.recipient as string,
    extAmount: ext.extAmount.toString(),
    relayer: ext.relayer as string,
    fee: ext.fee.toString(),
    deadline: ext.deadline.toString(),
    ...(relay?.quote ? { quote: relay.quote } : {}),
  };
}
