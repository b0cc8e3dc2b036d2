// POST /api/privacy/prove-transfer: spend the entity's notes to a shielded address, proved on
// this device. Returns the bundle the relay submits; nothing reaches the chain here.
import type { Context } from '../context.js';
import type { PaymentPurpose } from './tables.js';
import { parseSpend, proveSpend, recordSpend, bundleOfSpend } from './spend.js';

export { bundleOf } from './bundle.js';

export interface ProveTransferInput {
  recipientAddress: string;
  token?: string;
  amount?: string;
  chain?: string;
  purpose?: PaymentPurpose;
}

export async function proveTransfer(ctx: Context, entityId: string, input: ProveTransferInput) {
  const spec = parseSpend(ctx, entityId, { kind: 'sent', chain: input.chain, token: input.token, amount: input.amount, recipient: input.recipientAddress, purpose: input.purpose });
  const proved = await proveSpend(ctx, entityId, spec);
  const row = recordSpend(ctx, entityId, proved);
  const { chain: _chain, ...bundle } = bundleOfSpend(proved);
  return { success: true as const, proofId: row.proofId!, ...bundle, chain: spec.chain.name };
}
