import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BlobHasher } from './hasher.js';

/** Content-addressed files: `<root>/sha256/ab/cd/<hash>`; written to a temp file, fsynced, renamed. */
export interface BlobStore {
  put(data: Buffer): { sha256: string; size: number };
  /**
   * Stores a file as its pieces arrive (never whole in memory), hashing them on the way; throws,
   * keeping nothing, when it grows past `maxBytes` (413), does not hash to `sha256` (400), or the
   * pieces fail (a client gone midway). Its temp file lies in `<root>/tmp` until renamed.
   */
  putStream(pieces: AsyncIterable<Uint8Array>, expect?: { sha256?: string; maxBytes?: number }): Promise<{ sha256: string; size: number }>;
  /** Removes the temp files a process that died mid-write left (call when no write can be under way). */
  clearTemp(): void;
  get(sha256: string): Buffer;
  has(sha256: string): boolean;
  pathOf(sha256: string): string;
}

const HASH = /^[0-9a-f]{64}$/;

export function createBlobStore(root: string): BlobStore {
  const pathOf = (sha256: string) => {
    if (!HASH.test(sha256)) throw new Error('Invalid blob hash');
    return path.join(root, 'sha256', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };
  const tmpDir = path.join(root, 'tmp');
  return {
    pathOf,
    async putStream(pieces, expect = {}) {
      fs.mkdirSync(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
      const file = await fs.promises.open(tmp, 'wx', 0o600);
      let sha256: string;
      const hasher = new BlobHasher(expect.maxBytes);
      try {
        try {
          for await (const piece of pieces) {
            hasher.add(piece);
            await file.write(piece);
          }
          sha256 = hasher.finish(expect.sha256);
          await file.sync();
        } finally {
          await file.close();
        }
        const target = pathOf(sha256);
        // Content-addressed: a file already there has these very bytes.
        if (fs.existsSync(target)) await fs.promises.rm(tmp, { force: true });
        else {
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          await fs.promises.rename(tmp, target);
        }
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      return { sha256, size: hasher.size };
    },
    clearTemp() {
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
    put(data) {
      const sha256 = crypto.createHash('sha256').update(data).digest('hex');
      const target = pathOf(sha256);
      if (fs.existsSync(target)) return { sha256, size: data.length };
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        fs.writeSync(fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
      return { sha256, size: data.length };
    },
    get(sha256) {
      return fs.readFileSync(pathOf(sha256));
    },
    has(sha256) {
      return fs.existsSync(pathOf(sha256));
    },
  };
}
