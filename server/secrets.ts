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

/** Headless fallback: the key lives in `<dataDir>/secret.key` with mode 0600. */
export function createFileSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, 'secret.key');
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    key = crypto.randomBytes(32);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  fs.chmodSync(file, 0o600);
  return createKeySecretBox(key);
}
