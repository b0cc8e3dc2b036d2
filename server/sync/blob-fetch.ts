import type { Context } from '../context.js';
import type { LinkRow } from './engine.js';
import { callHosted, HostedError } from './hosted-client.js';

const SHA256 = /^[0-9a-f]{64}$/;

/** Rows name their file by sha256 (documents): a pulled row naming a file this device lacks brings it down first. */
export async function fetchMissingBlob(ctx: Context, link: LinkRow, token: string, sha: unknown): Promise<void> {
  if (typeof sha !== 'string' || !SHA256.test(sha) || ctx.blobs.has(sha)) return;
  const data = (await callHosted(link.hostedUrl, 'GET', `/sync/v1/blobs/${sha}`, { token, timeoutMs: 120_000 })) as unknown as Buffer;
  if (ctx.blobs.put(data).sha256 !== sha) throw new HostedError(502, 'A file from the hosted instance does not match its hash');
}
