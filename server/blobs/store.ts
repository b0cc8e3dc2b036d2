import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Content-addressed files: `<root>/sha256/ab/cd/<hash>`; written to a temp file, fsynced, renamed. */
export interface BlobStore {
  put(data: Buffer): { sha256: string; size: number };
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
  return {
    pathOf,
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
