// POST /api/privacy/unshield: prove a withdrawal of the entity's notes to a public address
// (default: the entity's smart account) and submit it through the relay path.
import type { Context } from '../context.js';
import type { PaymentPurpose } from './tables.js';
import { pingBundler } from './bundler.js';
import { parseSpend, proveSpend, recordSpend } from './spend.js';
import { relayRecorded } from './relay-recorded.js';

export interface UnshieldInput {
  token?: string;
  amount?: string;
  recipient?: string;
  chain?: string;
  purpose?: PaymentPurpose;
}

export async function unshieldFunds(ctx: Context, entityId: string, input: UnshieldInput) {
  const spec = parseSpend(ctx, entityId, { kind: 'unshielded', ...input });
  // An unreachable bundler answers 502 before any CPU is spent on proving.
  await pingBundler(spec.chain);
  const proved = await proveSpend(ctx, entityId, spec);
  const activity = recordSpend(ctx, entityId, proved);
  const { userOpHash, via, jobId } = await relayRecorded(ctx, entityId, activity.id);
  const relay = proved.relay;
  return {
    success: true as const,
    proofId: activity.proofId!,
    userOpHash,
    chain: spec.chain.name,
    token: spec.token,
    amount: spec.amount.toString(),
    recipient: proved.counterparty,
    ...(via ? { via, jobId, relayer: relay.relayer, fee: relay.fee.toString() } : {}),
  };
}
