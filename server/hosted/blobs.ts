// An entity's files, by sha256: uploaded before the row that names them, streamed both ways (a
// file is never whole in memory, nor in one database value), hashed while they stream.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { BlobHasher } from '../blobs/index.js';
import { NotFoundError } from '../http/errors.js';
import { MAX_BLOB_BYTES } from '../sync/protocol.js';
import { dropChunks, readChunks, writeChunks } from './blob-chunks.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { blobs } from './schema.js';

export interface OpenedBlob {
  size: number;
  stream: Readable;
}

/**
 * Stores a file as it streams in, after checking it hashes to the name it was sent under (400)
 * and stays within MAX_BLOB_BYTES (413); nothing is kept when it fails or the client goes away.
 * Storing it again is a no-op (its body is still checked).
 */
export async function putBlob(h: HostedContext, auth: DeviceAuth, sha256: string, body: AsyncIterable<Uint8Array>): Promise<{ created: boolean; size: number }> {
  const expect = { sha256, maxBytes: MAX_BLOB_BYTES };
  if ((await hasBlob(h, auth, sha256)) !== null) return { created: false, size: await drainChecked(body, expect) };
  const files = h.store.files;
  const uploadId = files ? null : h.ids.next();
  const { size } = files ? await files.putStream(body, expect) : await writeChunks(h.store.db, uploadId!, body, expect);
  const inserted = await h.store.db
    .insert(blobs)
    .values({ entityId: auth.entityId, sha256, size, uploadId, createdAt: serverTime(h) })
    .onConflictDoNothing()
    .returning({ sha256: blobs.sha256 });
  // Another device of the entity stored it meanwhile: its copy serves, this one goes.
  if (inserted.length === 0 && uploadId) await dropChunks(h.store.db, uploadId);
  return { created: inserted.length > 0, size };
}

/** Reads a body through, checking it as an upload would be, storing nothing. */
async function drainChecked(body: AsyncIterable<Uint8Array>, expect: { sha256: string; maxBytes: number }): Promise<number> {
  const hasher = new BlobHasher(expect.maxBytes);
  for await (const piece of body) hasher.add(piece);
  hasher.finish(expect.sha256);
  return hasher.size;
}

export async function hasBlob(h: HostedContext, auth: DeviceAuth, sha256: string): Promise<number | null> {
  const [row] = await h.store.db.select({ size: blobs.size }).from(blobs).where(and(eq(blobs.entityId, auth.entityId), eq(blobs.sha256, sha256)));
  return row ? row.size : null;
}

export async function getBlob(h: HostedContext, auth: DeviceAuth, sha256: string): Promise<OpenedBlob> {
  const blob = await openBlob(h, auth.entityId, sha256);
  if (!blob) throw new NotFoundError('Blob not found');
  return blob;
}

/** An entity's file as a stream, or null when it has not arrived; always through the entity's own row. */
export async function openBlob(h: HostedContext, entityId: string, sha256: string): Promise<OpenedBlob | null> {
  const [row] = await h.store.db.select({ size: blobs.size, uploadId: blobs.uploadId }).from(blobs).where(and(eq(blobs.entityId, entityId), eq(blobs.sha256, sha256)));
  if (!row) return null;
  if (row.uploadId) return { size: row.size, stream: readChunks(h.store.db, row.uploadId, row.size) };
  if (!h.store.files) throw new Error(`Blob ${sha256} has neither chunks nor a file store`);
  // Opened before answering, so a missing file fails the request rather than a response under way.
  const file = await fs.promises.open(h.store.files.pathOf(sha256), 'r');
  return { size: row.size, stream: file.createReadStream() };
}

/**
 * An entity's file whole, or null when it has not arrived (a PDF attached to a mail): bounded by
 * MAX_BLOB_BYTES, as every stored file is.
 */
export async function readBlob(h: HostedContext, entityId: string, sha256: string): Promise<Buffer | null> {
  const blob = await openBlob(h, entityId, sha256);
  if (!blob) return null;
  const pieces: Buffer[] = [];
  for await (const piece of blob.stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}
