import crypto from 'node:crypto';
import { BadRequestError, PayloadTooLargeError } from '../http/errors.js';

/**
 * Hashes and counts a file's bytes as they stream past, so a body is checked without ever being
 * whole in memory: over `maxBytes` fails at once (413), a wrong hash at the end (400).
 */
export class BlobHasher {
  private readonly hash = crypto.createHash('sha256');
  size = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  add(piece: Uint8Array): void {
    this.size += piece.length;
    if (this.size > this.maxBytes) throw new PayloadTooLargeError(`The file is larger than ${this.maxBytes} bytes`);
    this.hash.update(piece);
  }

  /** The sha256 of everything added; throws when it is not `expected`. */
  finish(expected?: string): string {
    const sha256 = this.hash.digest('hex');
    if (expected !== undefined && sha256 !== expected) throw new BadRequestError('The file does not hash to the sha256 it was sent under');
    return sha256;
  }
}
