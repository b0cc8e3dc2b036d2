// Content-addressed files per entity: uploaded before the row that names them.
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { blobs } from './schema.js';

/** Stores a blob after checking it hashes to the name it was sent under; storing it again is a no-op. */
export async function putBlob(h: HostedContext, auth: DeviceAuth, sha256: string, data: Buffer): Promise<{ created: boolean }> {
  const actual = crypto.createHash('sha256').update(data).digest('hex');
  if (actual !== sha256) throw new BadRequestError('The body does not hash to the sha256 in the path');
  const inserted = await h.store.db
    .insert(blobs)
    .values({ entityId: auth.entityId, sha256, size: data.length, data, createdAt: serverTime(h) })
    .onConflictDoNothing()
    .returning({ sha256: blobs.sha256 });
  return { created: inserted.length > 0 };
}

export async function hasBlob(h: HostedContext, auth: DeviceAuth, sha256: string): Promise<number | null> {
  const [row] = await h.store.db.select({ size: blobs.size }).from(blobs).where(and(eq(blobs.entityId, auth.entityId), eq(blobs.sha256, sha256)));
  return row ? row.size : null;
}

export async function getBlob(h: HostedContext, auth: DeviceAuth, sha256: string): Promise<Buffer> {
  const data = await readBlob(h, auth.entityId, sha256);
  if (!data) throw new NotFoundError('Blob not found');
  return data;
}

/** An entity's blob, or null when it has not arrived (public signing pages, mail attachments). */
export async function readBlob(h: HostedContext, entityId: string, sha256: string): Promise<Buffer | null> {
  const [row] = await h.store.db.select({ data: blobs.data }).from(blobs).where(and(eq(blobs.entityId, entityId), eq(blobs.sha256, sha256)));
  return row?.data ?? null;
}
