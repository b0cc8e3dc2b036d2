import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { Request } from 'express';
import type { Context } from '../context.js';
import { BadRequestError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../http/errors.js';

/**
 * An archive sent from the app (Restore from a backup, Import business): streamed to a file in
 * the data folder (never held in memory: a backup with its files is gigabytes), then checked and
 * used by a second request that names it, so the dry run and the restore read one upload.
 * Unused uploads are removed after an hour.
 */

const UPLOAD_TTL_MS = 3_600_000;
const ID = /^[0-9a-f]{32}$/;
export const ARCHIVE_TYPES = ['application/octet-stream', 'application/x-tar', 'application/x-bureau-backup'];

export function uploadsDir(ctx: Context): string {
  return path.join(ctx.config.dataDir, 'archive-uploads');
}

function uploadFile(ctx: Context, id: string): string {
  return path.join(uploadsDir(ctx), `${id}.bureau-upload`);
}

const tooLarge = (max: number) => new PayloadTooLargeError(`The archive is larger than this install accepts (${Math.floor(max / 1024 / 1024)} MB); restore it with \`npm run restore\` instead`);

/** Streams the request body to a new upload file, refusing more than the configured limit. */
export async function receiveArchive(ctx: Context, req: Request): Promise<{ id: string; file: string; size: number }> {
  const max = ctx.config.maxArchiveUploadBytes;
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const refuse = (err: Error) => {
    req.resume(); // drain the body so the answer reaches the client
    return err;
  };
  if (!ARCHIVE_TYPES.includes(type)) throw refuse(new UnsupportedMediaTypeError(`Send the archive as the raw body (${ARCHIVE_TYPES.join(', ')})`));
  if (Number(req.get('content-length') ?? 0) > max) throw refuse(tooLarge(max));
  removeStaleUploads(ctx);
  fs.mkdirSync(uploadsDir(ctx), { recursive: true, mode: 0o700 });
  const id = crypto.randomBytes(16).toString('hex');
  const file = uploadFile(ctx, id);
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) done(tooLarge(max));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    fs.rmSync(file, { force: true });
    req.resume();
    if (err instanceof PayloadTooLargeError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC') throw new PayloadTooLargeError('The disk of the data folder is full: the archive could not be received');
    throw new BadRequestError('The upload was interrupted before it was complete');
  }
  if (size === 0) {
    fs.rmSync(file, { force: true });
    throw new BadRequestError('The upload is empty: send the archive file as the body');
  }
  return { id, file, size };
}

/** The file of an earlier upload, by the id its upload answered. */
export function uploadedArchive(ctx: Context, id: string): string {
  const file = ID.test(id) ? uploadFile(ctx, id) : null;
  if (!file || !fs.existsSync(file)) throw new NotFoundError('No such upload (uploads are kept for an hour): send the archive again');
  return file;
}

export function discardUpload(ctx: Context, id: string): void {
  if (ID.test(id)) fs.rmSync(uploadFile(ctx, id), { force: true });
}

/** Uploads older than an hour (an abandoned restore or import): at start and before each upload. */
export function removeStaleUploads(ctx: Context): void {
  const dir = uploadsDir(ctx);
  if (!fs.existsSync(dir)) return;
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > UPLOAD_TTL_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed meanwhile
    }
  }
}
