// PGlite's blob storage: content-addressed files in the data dir (`<dataDir>/blobs/sha256/ab/cd/…`),
// the desktop's own store. A file may serve several entities; each one's access goes through its row.
import path from 'node:path';
import { and, asc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { BadRequestError } from '../http/errors.js';
import { createBlobStore, type BlobStore } from '../blobs/index.js';
import { chunksOf, dropChunks } from './blob-chunks.js';
import type { HostedDb } from './store.js';
import { blobs } from './schema.js';

const BATCH = 20;

/** Opens the file store; temp files of writes a previous process did not finish are removed (one process per PGlite data dir). */
export function openBlobFiles(dataDir: string): BlobStore {
  const files = createBlobStore(path.join(dataDir, 'blobs'));
  files.clearTemp();
  return files;
}

/**
 * The files an upgrade moved into `blob_chunks` (older versions kept them in the row) go on to
 * files, a few at a time, each checked against its hash on the way; returns how many moved. A
 * file whose bytes no longer match stays in chunks (still served) rather than stopping the start.
 */
export async function moveChunksToFiles(db: HostedDb, files: BlobStore): Promise<{ moved: number; kept: number }> {
  let moved = 0;
  let kept = 0;
  let after: { entityId: string; sha256: string } | null = null;
  for (;;) {
    const later: SQL | undefined = after ? sql`(${blobs.entityId}, ${blobs.sha256}) > (${after.entityId}, ${after.sha256})` : undefined;
    const batch: { entityId: string; sha256: string; size: number; uploadId: string | null }[] = await db
      .select({ entityId: blobs.entityId, sha256: blobs.sha256, size: blobs.size, uploadId: blobs.uploadId })
      .from(blobs)
      .where(and(isNotNull(blobs.uploadId), later))
      .orderBy(asc(blobs.entityId), asc(blobs.sha256))
      .limit(BATCH);
    if (batch.length === 0) return { moved, kept };
    for (const b of batch) {
      try {
        await files.putStream(chunksOf(db, b.uploadId!, b.size), { sha256: b.sha256 });
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        kept++;
        continue;
      }
      await db.transaction(async (tx) => {
        await tx.update(blobs).set({ uploadId: null }).where(and(eq(blobs.entityId, b.entityId), eq(blobs.sha256, b.sha256)));
        await dropChunks(tx, b.uploadId!);
      });
      moved++;
    }
    after = batch[batch.length - 1];
  }
}
