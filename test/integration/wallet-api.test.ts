// The privacy and relay routes without a chain: access rules, initialization, chain
// configuration, every validation error of the contract, 503/502 infrastructure failures and the
// relay's rate limit. (The on-chain flows are in wallet-devnet.test.ts.)
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, makeClient, type TestServer } from '../helpers/server.js';

/** A loopback port with nothing listening (connection refused). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const zero32 = `0x${'00'.repeat(32)}`;
function relayPayload(overrides: Record<string, unknown> = {}) {
  return {
    proof: `0x${'11'.repeat(256)}`,
    root: `0x${'22'.repeat(32)}`,
    nullifierHashes: [`0x${'33'.repeat(32)}`, `0x${'44'.repeat(32)}`],
    newCommitments: [`0x${'55'.repeat(32)}`, `0x${'66'.repeat(32)}`],
    encryptedNotesRecipient: ['0xaa', '0xbb'],
    encryptedNotesSender: ['0xcc', '0xdd'],
    token: `0x${'00'.repeat(20)}`,
    recipient: `0x${'00'.repeat(20)}`,
    extAmount: '0',
    relayer: `0x${'77'.repeat(20)}`,
    fee: '0',
    deadline: '99999999999',
    ...overrides,
  };
}

describe('privacy routes without chain configuration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('require a signed-in session with PRIVACY.USE: anonymous 401, API key 403', async () => {
    const owner = await server.signup();
    const key = await server.apiKeyClient(owner, ['read:ledger', 'write:ledger']);
    for (const [method, p] of [
      ['POST', '/api/privacy/initialize'],
      ['GET', '/api/privacy/status'],
      ['GET', '/api/privacy/balance'],
      ['GET', '/api/privacy/notes'],
      ['GET', '/api/privacy/history'],
      ['POST', '/api/privacy/shield'],
      ['POST', '/api/privacy/prove-transfer'],
      ['POST', '/api/privacy/unshield'],
    ] as const) {
      const opts = method === 'POST' ? { body: { entityId: owner.entityId, amount: '1' } } : {};
      const anon = await server.anon.request(method, `${p}?entityId=${owner.entityId}`, opts);
      expect(anon.status, `${method} ${p} anonymous`).toBe(401);
      const withKey = await key.request(method, `${p}?entityId=${owner.entityId}`, opts);
      expect(withKey.status, `${method} ${p} API key`).toBe(403);
      expect(withKey.body.error).toMatch(/session/);
    }
  });

  it('initialize is idempotent, creates sealed keys, and status reports it', async () => {
    const owner = await server.signup();
    const before = await owner.get('/api/privacy/status');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ initialized: false, shieldedAddress: null, defaultChain: 'base-sepolia' });
    expect(before.body.chains).toEqual([expect.objectContaining({ chain: 'base-sepolia', configured: false, problem: 'Wallet infrastructure not configured' })]);

    const first = await owner.post('/api/privacy/initialize', { entityId: owner.entityId });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, initialized: true, created: true, accountAddress: null, accounts: [] });
    expect(first.body.shieldedAddress).toMatch(/^bzk1[0-9a-f]{136}$/);
    expect(first.body.ownerAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const again = await owner.post('/api/privacy/initialize', { entityId: owner.entityId });
    expect(again.body).toMatchObject({ created: false, shieldedAddress: first.body.shieldedAddress, ownerAddress: first.body.ownerAddress });

    const after = await owner.get('/api/privacy/status');
    expect(after.body).toMatchObject({ initialized: true, shieldedAddress: first.body.shieldedAddress });
    // Keys are sealed: no column holds a 32-byte hex key in the clear.
    const row = server.ctx.sqlite.prepare('select * from wallet_keys where entity_id = ?').get(owner.entityId) as Record<string, string>;
    expect(row.seed_sealed.startsWith('v1.')).toBe(true);
    expect(row.owner_key_sealed.startsWith('v1.')).toBe(true);
    expect(Object.values(row).join('|')).not.toMatch(/0x[0-9a-f]{64}/i);

    // Each entity gets its own keys.
    const other = await server.signup();
    const otherInit = await other.post('/api/privacy/initialize', { entityId: other.entityId });
    expect(otherInit.body.shieldedAddress).not.toBe(first.body.shieldedAddress);
  });

  it('shield answers the error texts of the contract, in order', async () => {
    const owner = await server.signup();
    const noEntity = await owner.post('/api/privacy/shield', { amount: '1' }, { headers: { 'x-entity-id': '' } });
    expect(noEntity).toMatchObject({ status: 400, body: { error: 'entityId required' } });

    const notInit = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1000' });
    expect(notInit).toMatchObject({ status: 400, body: { error: 'Privacy not initialized' } });

    await owner.post('/api/privacy/initialize', { entityId: owner.entityId });
    for (const amount of ['0', '-5', 'abc', '1.5', '', ' ', 5, null, undefined, '340282366920938463463374607431768211456']) {
      const res = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount });
      expect(res, `amount ${JSON.stringify(amount)}`).toMatchObject({ status: 400, body: { error: 'Valid amount required' } });
    }
    const badToken = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1', token: 'USDC' });
    expect(badToken.status).toBe(400);

    const noConfig = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1000' });
    expect(noConfig).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
    const otherChain = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1000', chain: 'local' });
    expect(otherChain).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
  });

  it('prove-transfer and unshield validate before touching a chain', async () => {
    const owner = await server.signup();
    const notInit = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: 'bzk1', amount: '1' });
    expect(notInit).toMatchObject({ status: 400, body: { error: 'Privacy not initialized' } });
    const init = await owner.post('/api/privacy/initialize', { entityId: owner.entityId });
    const zeroAmount = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress, amount: '0' });
    expect(zeroAmount).toMatchObject({ status: 400, body: { error: 'Valid amount required' } });
    const tampered = init.body.shieldedAddress.slice(0, -1) + (init.body.shieldedAddress.endsWith('0') ? '1' : '0');
    const badRecipient = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: tampered, amount: '1' });
    expect(badRecipient.status).toBe(400);
    expect(badRecipient.body.error).toBe('recipientAddress: This shielded address has a typo: its checksum does not match. Copy it again from the recipient.');
    const short = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress.slice(0, 100), amount: '1' });
    expect(short.body.error).toBe('recipientAddress: A shielded address is 140 characters long; this one has 100. Copy it again in full.');
    // What it pays is checked before proving: an expense account must be one of the chart's expense accounts.
    const notExpense = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress, amount: '1', purpose: { kind: 'expense', account: '1010' } });
    expect(notExpense).toMatchObject({ status: 400, body: { error: "purpose.account: 1010 is not one of this business's expense accounts (Ledger → Accounts)" } });
    const badKind = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress, amount: '1', purpose: { kind: 'gift' } });
    expect(badKind.status).toBe(400);
    const goodPurpose = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress, amount: '1', purpose: { kind: 'expense', account: '6500' } });
    expect(goodPurpose).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
    const noConfig = await owner.post('/api/privacy/prove-transfer', { entityId: owner.entityId, recipientAddress: init.body.shieldedAddress, amount: '1' });
    expect(noConfig).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });

    const unshieldZero = await owner.post('/api/privacy/unshield', { entityId: owner.entityId, amount: '-1' });
    expect(unshieldZero).toMatchObject({ status: 400, body: { error: 'Valid amount required' } });
    const badPublic = await owner.post('/api/privacy/unshield', { entityId: owner.entityId, amount: '1', recipient: 'nobody' });
    expect(badPublic).toMatchObject({ status: 400, body: { error: 'recipient: A public address starts with 0x.' } });
    // One letter's case changed: the EIP-55 checksum catches it (all lower case carries no checksum and is taken).
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    const wrongCase = await owner.post('/api/privacy/unshield', { entityId: owner.entityId, amount: '1', recipient: checksummed.replace('E0F', 'e0F') });
    expect(wrongCase).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^recipient: This address has a typo: its capital letters do not match its EIP-55 checksum/) } });
    const lower = await owner.post('/api/privacy/unshield', { entityId: owner.entityId, amount: '1', recipient: checksummed.toLowerCase() });
    expect(lower).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
    const unshieldNoConfig = await owner.post('/api/privacy/unshield', { entityId: owner.entityId, amount: '1' });
    expect(unshieldNoConfig).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });

    const history = await owner.get('/api/privacy/history');
    expect(history).toMatchObject({ status: 200, body: { items: [] } });
    const balance = await owner.get('/api/privacy/balance');
    expect(balance).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
  });

  it('another entity cannot be named: not a member → 403', async () => {
    const a = await server.signup();
    const b = await server.signup();
    const res = await a.post('/api/privacy/initialize', { entityId: b.entityId }, { headers: { 'x-entity-id': b.entityId } });
    expect(res.status).toBe(403);
  });

  it('relay needs no authentication, validates the payload, and answers 503 without configuration', async () => {
    const relay = makeClient(server.url, { 'x-forwarded-for': '203.0.113.9' });
    const invalid = await relay.post('/api/relay/transfer', { proof: '0x12' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['proof', 'root', 'nullifierHashes']));
    const oneNullifier = await relay.post('/api/relay/transfer', relayPayload({ nullifierHashes: [zero32] }));
    expect(oneNullifier.status).toBe(400);
    const notHex = await relay.post('/api/relay/transfer', relayPayload({ root: 'root' }));
    expect(notHex.status).toBe(400);
    const wellFormed = await relay.post('/api/relay/transfer', relayPayload());
    expect(wellFormed).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
  });
});

describe('relay rate limit', () => {
  it('allows 20 requests per minute per client IP, then 429 with Retry-After (invalid requests count too)', async () => {
    const clock = { offsetMs: 0, now: () => new Date(Date.UTC(2026, 10, 22, 5, 0, 0) + clock.offsetMs) };
    const server = await startTestServer({ clock });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await server.anon.post('/api/relay/transfer', i % 2 ? relayPayload() : { bad: true })).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      const limited = await server.anon.post('/api/relay/transfer', relayPayload());
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.body.error).toMatch(/Too many/);
      // Other routes are not affected.
      expect((await server.anon.get('/api/health')).status).toBe(200);
      // The window slides: a minute later the client may relay again.
      clock.offsetMs = 61_000;
      expect((await server.anon.post('/api/relay/transfer', relayPayload())).status).toBe(503);
    } finally {
      await server.close();
    }
  });
});

describe('chain configuration', () => {
  it('merges chainsFile under config.chains, validates each chain, and shows no secrets', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-chains-'));
    const file = path.join(dir, 'chains.json');
    const bundlerPort = await closedPort();
    fs.writeFileSync(
      file,
      JSON.stringify({
        'base-sepolia': {
          chainId: 84532,
          rpcUrl: 'https://rpc.example.com/v2/SECRET-RPC-KEY',
          bundlerUrl: 'http://127.0.0.1:1/bundler',
          entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
          pool: '0x1111111111111111111111111111111111111111',
          tokens: { BTT: '0x2222222222222222222222222222222222222222' },
        },
      }),
    );
    const server = await startTestServer({
      chainsFile: file,
      // An inline entry that does not validate is shown in status (the file's must all be valid: below).
      chains: { 'base-sepolia': { bundlerUrl: `http://127.0.0.1:${bundlerPort}/?apikey=SECRET-BUNDLER-KEY` }, broken: { chainId: 'x', rpcUrl: 'not a url' } },
    });
    try {
      const owner = await server.signup();
      const status = await owner.get('/api/privacy/status');
      expect(status.status).toBe(200);
      const text = JSON.stringify(status.body);
      expect(text).not.toContain('SECRET');
      const base = status.body.chains.find((c: { chain: string }) => c.chain === 'base-sepolia');
      expect(base).toMatchObject({ configured: true, chainId: 84532, rpc: 'https://rpc.example.com', bundler: `http://127.0.0.1:${bundlerPort}`, tokens: [{ address: '0x2222222222222222222222222222222222222222', symbol: 'BTT', decimals: null }] });
      const broken = status.body.chains.find((c: { chain: string }) => c.chain === 'broken');
      expect(broken).toMatchObject({ configured: false });
      expect(broken.problem).toMatch(/chainId/);

      // The bundler does not answer: 502 before any proving work.
      await owner.post('/api/privacy/initialize', { entityId: owner.entityId });
      const down = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1000' });
      expect(down).toMatchObject({ status: 502, body: { error: 'Bundler submission failed' } });
      expect(JSON.stringify(down.body)).not.toContain('SECRET');
      const brokenChain = await owner.post('/api/privacy/shield', { entityId: owner.entityId, amount: '1000', chain: 'broken' });
      expect(brokenChain).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('funding from the devnet is refused on any chain but a local development chain', async () => {
    const server = await startTestServer({ chains: { 'base-sepolia': { chainId: 84532, rpcUrl: 'http://127.0.0.1:9', bundlerUrl: 'http://127.0.0.1:9', entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', pool: '0x1111111111111111111111111111111111111111' } } });
    try {
      const owner = await server.signup();
      await owner.post('/api/privacy/initialize', {});
      const res = await owner.post('/api/privacy/devnet-fund', { chain: 'base-sepolia', target: 'account' });
      expect(res).toMatchObject({ status: 400, body: { error: expect.stringMatching(/only possible on a local development chain/) } });
    } finally {
      await server.close();
    }
  });

  it('a chains file that does not parse or validate stops the server at start, saying why', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-chains-'));
    try {
      const cases: [string, string, RegExp][] = [
        // What `npm run devnet > chains.json` used to write: npm's banner before the JSON.
        ['banner.json', '\n> bureau@0.1.0 devnet\n> tsx circuits/scripts/devnet.ts\n\n{"local":{}}', /chainsFile could not be read: .*banner\.json/],
        ['invalid.json', JSON.stringify({ local: { chainId: 'x', rpcUrl: 'not a url' } }), /chain "local" is invalid: .*chainId/],
        ['empty.json', '{}', /names no chains/],
        ['array.json', '[]', /must hold a JSON object/],
      ];
      for (const [name, content, message] of cases) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, content);
        await expect(startTestServer({ chainsFile: file })).rejects.toThrow(message);
      }
      await expect(startTestServer({ chainsFile: path.join(dir, 'missing.json') })).rejects.toThrow(/could not be read/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
