import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SafeStorage } from 'electron';
import { createFileSecretBox, createKeySecretBox, type SecretBox } from '../server/secrets.js';

/**
 * The server's SecretBox on the desktop: a random data key, itself encrypted by the OS keychain
 * (Electron safeStorage), so secrets at rest are unreadable without the user's login keychain.
 * Where no keychain is available, the headless 0600 key file is used instead.
 */
export function createSafeStorageSecretBox(safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>, dataDir: string): SecretBox {
  if (!safeStorage.isEncryptionAvailable()) return createFileSecretBox(dataDir);
  const file = path.join(dataDir, 'secret.key.sealed');
  let key: Buffer;
  if (fs.existsSync(file)) {
    key = Buffer.from(safeStorage.decryptString(fs.readFileSync(file)), 'base64');
  } else {
    key = crypto.randomBytes(32);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, safeStorage.encryptString(key.toString('base64')), { mode: 0o600, flag: 'wx' });
  }
  return createKeySecretBox(key);
}
