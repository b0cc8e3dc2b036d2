import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Seals secrets at rest. On the desktop this is backed by the OS keychain (Electron safeStorage);
 * headless it uses a 256-bit key file readable only by the owner.
 */
export interface SecretBox {
  seal(plaintext: Buffer | string): string;
  open(sealed: string): Buffer;
}

const VERSION = 'v1';

/** AES-256-GCM with a random nonce; the output is `v1.<nonce>.<tag>.<ciphertext>` in base64url. */
export function createKeySecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('SecretBox key must be 32 bytes');
  return {
    seal(plaintext) {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
      const ct = Buffer.concat([cipher.update(Buffer.from(plaintext)), cipher.final()]);
      return [VERSION, nonce, cipher.getAuthTag(), ct].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [v, nonce, tag, ct] = sealed.split('.');
      if (v !== VERSION || !nonce || !tag || ct === undefined) throw new Error('Malformed sealed secret');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]);
    },
  };
}

/**
 * Headless fallback: the key lives in `<dataDir>/secret.key` with mode 0600. It is written to a
 * temp file, fsynced and renamed into place, so a crash on first start never leaves an empty
 * key file behind (which would stop every later start).
 */
export function createFileSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, 'secret.key');
  // An empty key file (left by an older version that crashed while writing it) never sealed anything.
  if (fs.existsSync(file) && fs.statSync(file).size === 0) fs.rmSync(file);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeSync(fd, crypto.randomBytes(32).toString('base64'));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(tmp, file); // fails if another process made the key first: theirs wins
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  fs.chmodSync(file, 0o600);
  return createKeySecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
}
