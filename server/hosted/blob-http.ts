// A file's body in and out of HTTP as a stream: refused up front when its Content-Length is over
// the limit, answered with the connection closed when refused part-way (the rest of a body that
// will not be read is not waited for), and a client gone midway ends the work quietly.
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../http/errors.js';
import { MAX_BLOB_BYTES } from '../sync/protocol.js';
import type { OpenedBlob } from './blobs.js';

/** The upload's bytes as they arrive; a client that disconnects ends them with a 400 nobody reads (and nobody logs). */
async function* bodyOf(req: Request): AsyncGenerator<Uint8Array> {
  try {
    for await (const piece of req) yield piece as Uint8Array;
  } catch (err) {
    if (req.destroyed || (err as { code?: string }).code === 'ECONNRESET') throw new HttpError(400, 'Request aborted before the body was complete');
    throw err;
  }
  if (!req.complete) throw new HttpError(400, 'Request aborted before the body was complete');
}

/**
 * Runs `store` on the request's body. The bytes are the file itself: a compressed encoding would
 * hash differently, so only identity is taken.
 */
export async function receiveBlobBody<T>(req: Request, res: Response, store: (body: AsyncIterable<Uint8Array>) => Promise<T>): Promise<T> {
  const encoding = req.get('content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') throw new UnsupportedMediaTypeError('A file is sent as it is, without Content-Encoding');
  try {
    if (Number(req.get('content-length') ?? 0) > MAX_BLOB_BYTES) throw new PayloadTooLargeError(`The file is larger than ${MAX_BLOB_BYTES} bytes`);
    return await store(bodyOf(req));
  } catch (err) {
    if (err instanceof PayloadTooLargeError) res.setHeader('connection', 'close');
    throw err;
  }
}

/** Streams a stored file as the answer, holding only what the socket has not taken yet. */
export async function sendBlob(res: Response, blob: OpenedBlob, log: Logger): Promise<void> {
  res.setHeader('content-length', String(blob.size));
  try {
    await pipeline(blob.stream, res);
  } catch (err) {
    // The client went away: nothing to answer, nothing wrong here.
    if (res.destroyed && !res.writableFinished && (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    log.error({ err }, 'file stream failed mid-answer');
  }
}
