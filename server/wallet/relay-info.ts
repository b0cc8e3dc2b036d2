// What the wallet screen shows about relaying before and after a send: which relayer a bundle
// would be built for and its fee (the hosted relay's quote for a linked entity), and the
// progress of a job the hosted relay took.
import type { Context } from '../context.js';
import { BadGatewayError, NotFoundError } from '../http/errors.js';
import { parseToken } from './amounts.js';
import { requireChain } from './chains.js';
import { chooseRelay, linkedHostedUrl, readHostedJob } from './hosted-relay.js';
import { relayJobResponse } from './schemas.js';

export async function previewRelay(ctx: Context, entityId: string, input: { chain?: string; token?: string }) {
  const chain = requireChain(ctx, input.chain);
  const token = parseToken(input.token);
  const relay = await chooseRelay(ctx, entityId, chain, token);
  return { via: relay.via, chain: chain.name, token, relayer: relay.relayer, fee: relay.fee.toString(), deadline: relay.deadline.toString(), expiresAt: relay.quote?.expiresAt ?? null };
}

/** A hosted relay job of a linked entity (asked for plainly, as the relay call was). */
export async function getRelayJob(ctx: Context, entityId: string, jobId: string) {
  const url = linkedHostedUrl(ctx, entityId);
  if (!url) throw new NotFoundError('Unknown relay job');
  // The hosted instance's answer is checked to be a job before it is shown.
  const job = relayJobResponse.safeParse(await readHostedJob(url, jobId));
  if (!job.success) throw new BadGatewayError('Hosted relay unreachable', { reason: 'not a relay job' });
  return job.data;
}
