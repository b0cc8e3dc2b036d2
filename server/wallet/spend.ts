// A send or unshield from the entity's notes, in steps the routes share: parse what is asked,
// prove it (on the relay's quote), record it (history row + the bundle kept on this device) and
// relay it — so prepare/confirm, Try again and the plain routes prove and record the same way.
import { and, eq } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { BadRequestError } from '../http/errors.js';
import { decodeAddress, planTransfer, planUnshield, shieldedAddressProblem } from '../privacy/index.js';
import { parseAmount, parseToken } from './amounts.js';
import { checksumAddress, publicAddressProblem } from './address.js';
import { requireChain, type ChainConfig } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { entityAccount } from './accounts.js';
import { poolContext, proveTransaction, type ProvedTransaction } from './pool-tx.js';
import { chooseRelay, type RelayChoice } from './hosted-relay.js';
import { assertCoverable, spendableNotes } from './spendable.js';
import { insertActivity, nullifierKey, type ActivityRow } from './activity.js';
import { checkPaymentPurpose } from './payment-purpose.js';
import { walletActivity, walletBundles, type PaymentPurpose } from './tables.js';
import { bundleOf } from './bundle.js';

export type SpendKind = 'sent' | 'unshielded';

export interface SpendInput {
  kind: SpendKind;
  chain?: string;
  token?: string;
  amount?: string;
  /** A shielded address (send) or a public address (unshield; empty: our own smart account). */
  recipient?: string;
  purpose?: PaymentPurpose;
}

/** What is to be proved, checked: every field a proof binds or the books need. */
export interface SpendSpec {
  kind: SpendKind;
  chain: ChainConfig;
  token: Address;
  amount: bigint;
  /** Trimmed shielded address, checksummed public address, or null (unshield to our own account). */
  recipient: string | null;
  purpose: PaymentPurpose | null;
}

export function parseSpend(ctx: Context, entityId: string, input: SpendInput): SpendSpec {
  loadEntityWallet(ctx, entityId);
  const amount = parseAmount(input.amount);
  const token = parseToken(input.token);
  const raw = input.recipient?.trim() ?? '';
  let recipient: string | null;
  if (input.kind === 'sent') {
    const problem = shieldedAddressProblem(raw);
    if (problem) throw new BadRequestError(`recipientAddress: ${problem}`);
    recipient = raw;
  } else {
    const problem = raw ? publicAddressProblem(raw) : null;
    if (problem) throw new BadRequestError(`recipient: ${problem}`);
    recipient = raw ? checksumAddress(raw) : null;
  }
  const purpose = checkPaymentPurpose(ctx, entityId, input.purpose) ?? null;
  return { kind: input.kind, chain: requireChain(ctx, input.chain), token, amount, recipient, purpose };
}

export interface ProvedSpend {
  spec: SpendSpec;
  proved: ProvedTransaction;
  relay: RelayChoice;
  /** Where the funds go, as the history shows it (an unshield's resolved public address). */
  counterparty: string;
}

/** Selects notes and proves on the relay's quote (a linked entity's fee comes from the notes, on top of the amount). */
export async function proveSpend(ctx: Context, entityId: string, spec: SpendSpec): Promise<ProvedSpend> {
  const wallet = loadEntityWallet(ctx, entityId);
  const pool = await poolContext(ctx, spec.chain);
  const notes = spendableNotes(ctx, entityId, spec.chain.name, spec.token, wallet.keys);
  assertCoverable(notes, spec.amount);
  const relay = await chooseRelay(ctx, entityId, spec.chain, spec.token);
  assertCoverable(notes, spec.amount + relay.fee);
  const common = { ctx: pool, keys: wallet.keys, token: spec.token, amount: spec.amount, deadline: relay.deadline, notes, relayer: relay.relayer, fee: relay.fee };
  if (spec.kind === 'sent') {
    const plan = planTransfer({ ...common, to: decodeAddress(spec.recipient!) });
    return { spec, proved: await proveTransaction(ctx, plan), relay, counterparty: spec.recipient! };
  }
  const recipient = (spec.recipient as Address | null) ?? (await entityAccount(ctx, spec.chain, wallet)).address;
  const plan = planUnshield({ ...common, recipient });
  return { spec, proved: await proveTransaction(ctx, plan), relay, counterparty: recipient };
}

export type Bundle = ReturnType<typeof bundleOf> & { chain: string };

export function bundleOfSpend(p: ProvedSpend): Bundle {
  return { ...bundleOf(p.proved, p.relay), chain: p.spec.chain.name };
}

/**
 * Writes the history row (`proved`) and keeps its bundle on this device, in one transaction.
 * With `replacing`, the row of a transfer proved again (Try again after its root went stale)
 * takes the new proof instead of a second row appearing beside it.
 */
export function recordSpend(ctx: Context, entityId: string, p: ProvedSpend, replacing?: ActivityRow): ActivityRow {
  const bundle = bundleOfSpend(p);
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    let row: ActivityRow;
    if (replacing) {
      const changes = {
        status: 'proved' as const,
        error: null,
        fee: p.proved.plan.extData.fee.toString(),
        proofId: ctx.ids.next(),
        userOpHash: null,
        nullifiers: p.proved.nullifiers,
        nullifierKey: nullifierKey(p.proved.nullifiers),
        commitments: p.proved.commitments,
        updatedAt: now,
      };
      tx.update(walletActivity).set(changes).where(eq(walletActivity.id, replacing.id)).run();
      row = { ...replacing, ...changes };
      tx.delete(walletBundles).where(eq(walletBundles.activityId, row.id)).run();
    } else {
      row = insertActivity(ctx, tx, {
        entityId,
        chain: p.spec.chain.name,
        kind: p.spec.kind,
        status: 'proved',
        token: p.spec.token,
        amount: p.spec.amount,
        fee: p.proved.plan.extData.fee,
        counterparty: p.counterparty,
        proofId: ctx.ids.next(),
        nullifiers: p.proved.nullifiers,
        commitments: p.proved.commitments,
        purpose: p.spec.purpose,
      });
    }
    tx.insert(walletBundles).values({ activityId: row.id, entityId, chain: p.spec.chain.name, bundle, relayError: null, createdAt: now, updatedAt: now }).run();
    return row;
  });
}

/** The bundle kept for an activity of this entity, or null. */
export function storedBundle(ctx: Context, entityId: string, activityId: string): (typeof walletBundles.$inferSelect & { bundle: Bundle }) | null {
  const row = ctx.db.select().from(walletBundles).where(and(eq(walletBundles.activityId, activityId), eq(walletBundles.entityId, entityId))).get();
  return row ? { ...row, bundle: row.bundle as Bundle } : null;
}
