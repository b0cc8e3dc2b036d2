import type { Request } from 'express';
import type busboy from 'busboy';
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
  if (declared > maxBytes + 64 * 1024) throw tooLarge(maxBytes);
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

const tooLarge = (maxBytes: number) => new PayloadTooLargeError(`The file is larger than ${maxBytes / 1024 / 1024} MB`);

function readRaw(req: Request, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        req.resume();
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => !failed && resolve(Buffer.concat(chunks)));
    req.on('aborted', () => fail(new BadRequestError('The upload was interrupted before it was complete')));
    req.on('error', () => fail(new BadRequestError('The upload was interrupted before it was complete')));
  });
}

/** Multipart limits: one file, a few small fields, nothing else. */
const MULTIPART_LIMITS = { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 32, headerPairs: 50 };

/**
 * Every stream here (request, parser, file part) has an error listener: a truncated or
 * malformed body is a 400 for this request, never an uncaught error that stops the server.
 */
async function readMultipart(req: Request, maxBytes: number): Promise<Upload> {
  // Loaded on the first upload: the parser's module takes a tenth of the server's start.
  const { default: createParser } = await import('busboy');
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = createParser({ headers: req.headers, limits: { ...MULTIPART_LIMITS, fileSize: maxBytes } });
    } catch {
      reject(new BadRequestError('Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: { data: Buffer; filename: string | null } | null = null;
    let settled = false;
    let pending: Promise<void> = Promise.resolve();
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      req.resume(); // drain what is left so the response can be sent
      reject(err);
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new PayloadTooLargeError(`The field ${JSON.stringify(name.slice(0, 40))} is too long`));
      fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      stream.on('error', () => fail(new BadRequestError('Malformed multipart body: the file part is incomplete')));
      if (name !== 'file' || file || settled) {
        stream.resume();
        return;
      }
      pending = new Promise((done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => fail(tooLarge(maxBytes)));
        stream.on('close', () => {
          file = { data: Buffer.concat(chunks), filename: info.filename ? info.filename : null };
          done();
        });
      });
    });
    bb.on('partsLimit', () => fail(new PayloadTooLargeError('Too many parts in the multipart body')));
    bb.on('filesLimit', () => fail(new BadRequestError('Upload one file per request')));
    bb.on('fieldsLimit', () => fail(new PayloadTooLargeError('Too many fields in the multipart body')));
    bb.on('error', () => fail(new BadRequestError('Malformed multipart body')));
    bb.on('close', () => {
      void pending.then(() => {
        if (settled) return;
        if (!file) return fail(new BadRequestError('The multipart body has no `file` part'));
        settled = true;
        resolve({ ...(file as { data: Buffer; filename: string | null }), fields });
      });
    });
    req.on('aborted', () => fail(new BadRequestError('The upload was interrupted before it was complete')));
    req.on('error', () => fail(new BadRequestError('The upload was interrupted before it was complete')));
    req.pipe(bb);
  });
}
