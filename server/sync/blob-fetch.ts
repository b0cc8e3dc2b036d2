import type { Context } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { LinkRow } from './engine-state.js';
import { callHosted, HostedError } from './hosted-client.js';
import { MAX_BLOB_BYTES } from './protocol.js';

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Rows name their file by sha256 (documents): a pulled row naming a file this device lacks brings
 * it down first, written to the blob store as it arrives (never whole in memory) and kept only
 * when it hashes to its name.
 */
export async function fetchMissingBlob(ctx: Context, link: LinkRow, token: string, sha: unknown): Promise<void> {
  if (typeof sha !== 'string' || !SHA256.test(sha) || ctx.blobs.has(sha)) return;
  const body = (await callHosted(link.hostedUrl, 'GET', `/sync/v1/blobs/${sha}`, { token, timeoutMs: 120_000, stream: true })) as unknown as AsyncIterable<Uint8Array>;
  try {
    await ctx.blobs.putStream(body, { sha256: sha, maxBytes: MAX_BLOB_BYTES });
  } catch (err) {
    // Refused by the store's own checks (too large, wrong hash): the hosted instance sent a bad file.
    if (err instanceof HttpError) throw new HostedError(502, err.status === 413 ? 'A file from the hosted instance is larger than any file may be' : 'A file from the hosted instance does not match its hash');
    // This device's own disk failing is not the hosted instance's doing.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    throw new HostedError(0, `The hosted instance at ${link.hostedUrl} stopped sending a file (${(err as Error).name})`);
  }
}
