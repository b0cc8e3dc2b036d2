import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer } from '../helpers/server.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('npm run server', () => {
  it('starts headless on the given port and data dir and prints its URL when ready', async () => {
    const dataDir = path.join(tmp, 'data');
    const child = spawn('npm', ['run', '--silent', 'server', '--', '--port', '0', '--data-dir', dataDir], { cwd: process.cwd(), env: { ...process.env, BUREAU_RENDERER_DIR: path.join(tmp, 'no-ui') } });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m) resolve(m[0]);
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
      });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'bureau.db'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('reads BUREAU_PORT and BUREAU_DATA_DIR, and says clearly when it cannot start', async () => {
    const dataDir = path.join(tmp, 'env');
    const blocker = await startTestServer();
    try {
      const child = spawn('npm', ['run', '--silent', 'server'], { cwd: process.cwd(), env: { ...process.env, BUREAU_PORT: String(blocker.port), BUREAU_DATA_DIR: dataDir } });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toMatch(/Bureau failed to start: .*EADDRINUSE/);
      expect(fs.existsSync(path.join(dataDir, 'bureau.db'))).toBe(true);
    } finally {
      await blocker.close();
    }
  });
});

describe('logging', () => {
  it('never writes passwords, API keys, session tokens or signing paths to the log', async () => {
    let captured = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        captured += chunk;
        cb();
      },
    });
    const server = await startTestServer({ logLevel: 'trace', logDestination: sink });
    try {
      const owner = await server.signup({ password: 'super secret passphrase' });
      await server.anon.post('/api/auth/login', { email: owner.email, password: 'wrong but secret guess' });
      const key = await server.apiKeyClient(owner, ['read:helpdesk']);
      await key.get('/api/auth/me');
      await makeClient(server.url, { authorization: 'Bearer ak_forged_key_value' }).get('/api/auth/me');
      await server.anon.get('/api/sign/some-signing-token-value');
      expect(captured).toContain('"route":"/api/auth/me"');
      for (const secret of ['super secret passphrase', 'wrong but secret guess', key.key, 'ak_forged_key_value', owner.cookie.split('=')[1], 'some-signing-token-value']) {
        expect(captured).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });
});
