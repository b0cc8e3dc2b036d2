// PostgreSQL's blob storage (several hosted processes share the database, not a disk): a file's
// bytes as rows of at most 1 MiB, written and read one at a time as they stream.
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { BlobHasher } from '../blobs/index.js';
import type { HostedDb, HostedTx } from './store.js';
import { blobChunks } from './schema.js';

export const CHUNK_BYTES = 1024 * 1024;
/** An upload still without its `blobs` row after this long broke off (a process died mid-upload). */
const ABANDONED_MS = 60 * 60_000;

/** Cuts arbitrary pieces into chunks of exactly CHUNK_BYTES (the last one shorter). */
async function* rechunked(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of pieces) {
    pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    pendingBytes += piece.byteLength;
    if (pendingBytes < CHUNK_BYTES) continue;
    const all = Buffer.concat(pending, pendingBytes);
    let at = 0;
    for (; all.length - at >= CHUNK_BYTES; at += CHUNK_BYTES) yield all.subarray(at, at + CHUNK_BYTES);
    pending = at < all.length ? [all.subarray(at)] : [];
    pendingBytes = all.length - at;
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/** The pieces as they pass through `hasher` (which throws once they are too many bytes). */
async function* counted(pieces: AsyncIterable<Uint8Array>, hasher: BlobHasher): AsyncGenerator<Uint8Array> {
  for await (const piece of pieces) {
    hasher.add(piece);
    yield piece;
  }
}

/**
 * Writes a file under `uploadId` chunk by chunk as it arrives (the next piece is read only once
 * the last chunk is stored), checking size and hash on the way; on any failure its chunks are
 * removed and the error rethrown. Nothing serves the chunks until a `blobs` row names them.
 */
export async function writeChunks(db: HostedDb, uploadId: string, pieces: AsyncIterable<Uint8Array>, expect: { sha256: string; maxBytes: number }): Promise<{ size: number }> {
  const hasher = new BlobHasher(expect.maxBytes);
  let n = 0;
  try {
    for await (const chunk of rechunked(counted(pieces, hasher))) await db.insert(blobChunks).values({ uploadId, n: n++, data: chunk });
    hasher.finish(expect.sha256);
  } catch (err) {
    // Should the database itself have failed, a later start sweeps what stays.
    await dropChunks(db, uploadId).catch(() => undefined);
    throw err;
  }
  return { size: hasher.size };
}

export async function dropChunks(db: HostedDb | HostedTx, uploadId: string): Promise<void> {
  await db.delete(blobChunks).where(eq(blobChunks.uploadId, uploadId));
}

/** A stored file's chunks in order, each read when the previous one has been taken. */
export async function* chunksOf(db: HostedDb, uploadId: string, size: number): AsyncGenerator<Buffer> {
  for (let n = 0; n * CHUNK_BYTES < size; n++) {
    const [row] = await db.select({ data: blobChunks.data }).from(blobChunks).where(and(eq(blobChunks.uploadId, uploadId), eq(blobChunks.n, n)));
    if (!row) throw new Error(`Chunk ${n} of upload ${uploadId} is missing`);
    yield row.data;
  }
}

/** The file as a byte stream holding about one chunk at a time. */
export function readChunks(db: HostedDb, uploadId: string, size: number): Readable {
  return Readable.from(chunksOf(db, uploadId, size), { objectMode: false, highWaterMark: 64 * 1024 });
}

/**
 * Removes chunks no `blobs` row names: uploads a process died in the middle of (their
 * time-ordered ids say they began over an hour ago; younger ones may still be streaming in
 * another process), and the files of deleted entities (ids that are not time-ordered).
 */
export async function sweepAbandonedChunks(db: HostedDb, now: Date): Promise<void> {
  const cutoff = (now.getTime() - ABANDONED_MS).toString(16).padStart(12, '0');
  const before = `${cutoff.slice(0, 8)}-${cutoff.slice(8, 12)}-7000-8000-000000000000`;
  await db.execute(sql`delete from blob_chunks c
    where not exists (select 1 from blobs b where b.upload_id = c.upload_id)
      and (c.upload_id < ${before}::uuid or substring(c.upload_id::text, 15, 1) <> '7')`);
}
