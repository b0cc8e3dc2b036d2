import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSecretBox } from '../../server/secrets.js';

describe('the headless secret key file', () => {
  it('is made once, kept across opens, and an empty one left by a crash is replaced', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-key-'));
    try {
      const sealed = createFileSecretBox(dir).seal('hello');
      expect(createFileSecretBox(dir).open(sealed).toString()).toBe('hello');
      expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir)).toEqual(['secret.key']);
      fs.writeFileSync(path.join(dir, 'secret.key'), '');
      expect(createFileSecretBox(dir).open(createFileSecretBox(dir).seal('again')).toString()).toBe('again');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
