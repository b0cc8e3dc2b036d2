import type { Request } from 'express';
import busboy from 'busboy';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../http/errors.js';

/** Uploads are bounded: larger bodies are refused with 413 before they are stored. */
export const MAX_PDF_BYTES = 25 * 1024 * 1024;

export interface Upload {
  data: Buffer;
  filename: string | null;
  fields: Record<string, string>;
}

/**
 * Reads a PDF upload from the request: either the raw body (`application/pdf`, name from
 * `?name=`, `x-filename` or Content-Disposition) or `multipart/form-data` with one `file` part.
 */
export async function readUpload(req: Request, maxBytes = MAX_PDF_BYTES): Promise<Upload> {
  const declared = Number(req.get('content-length') ?? 0);
  if (declared > maxBytes + 64 * 1024) throw new PayloadTooLargeError(`The file is larger than ${maxBytes / 1024 / 1024} MB`);
  const type = (req.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/pdf')) return { data: await readRaw(req, maxBytes), filename: rawFilename(req), fields: {} };
  if (type.startsWith('multipart/form-data')) return readMultipart(req, maxBytes);
  throw new UnsupportedMediaTypeError('Upload a PDF as application/pdf or multipart/form-data');
}

function rawFilename(req: Request): string | null {
  const header = req.get('x-filename');
  if (header) return safeDecode(header);
  const disposition = req.get('content-disposition');
  const m = disposition ? /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition) : null;
  if (m) return safeDecode(m[1] ?? m[2]);
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function readRaw(req: Request, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        req.resume();
        reject(new PayloadTooLargeError(`The file is larger than ${maxBytes / 1024 / 1024} MB`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => !failed && resolve(Buffer.concat(chunks)));
    req.on('error', (err) => !failed && reject(err));
  });
}

function readMultipart(req: Request, maxBytes: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(new BadRequestError('Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: { data: Buffer; filename: string | null } | null = null;
    let error: Error | null = null;
    let pending: Promise<void> = Promise.resolve();
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      pending = new Promise((done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => (error ??= new PayloadTooLargeError(`The file is larger than ${maxBytes / 1024 / 1024} MB`)));
        stream.on('close', () => {
          file = { data: Buffer.concat(chunks), filename: info.filename ? info.filename : null };
          done();
        });
      });
    });
    bb.on('error', () => reject(new BadRequestError('Malformed multipart body')));
    bb.on('close', () => {
      void pending.then(() => {
        if (error) return reject(error);
        if (!file) return reject(new BadRequestError('The multipart body has no `file` part'));
        resolve({ ...(file as { data: Buffer; filename: string | null }), fields });
      });
    });
    req.pipe(bb);
  });
}
