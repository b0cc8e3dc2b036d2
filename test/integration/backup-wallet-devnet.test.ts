// A business exported with its wallet and imported on another install, on the real devnet: with
// the recovery passphrase its wallet still spends the notes it shielded before the export (a real
// proof, relayed, the money arrives); without it the wallet says it cannot, with a clear 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';
import { cleanupBackups, PASSPHRASE } from './backup-helpers.js';

const ETH = '0x0000000000000000000000000000000000000000';
let devnet: Devnet;
let chains: Record<string, Record<string, unknown>>;
let source: TestServer;
let owner: SessionClient;
let exportFile: string;
const servers: TestServer[] = [];

async function until<T>(what: string, server: TestServer, check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    await server.ctx.loops.runAll();
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function fund(address: Address, eth: string) {
  const hash = await devnet.deployer.sendTransaction({ to: address, value: parseEther(eth) });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
}

async function ethBalance(c: Client): Promise<bigint | null> {
  const res = await c.get('/api/privacy/balance?chain=local');
  return res.status === 200 ? BigInt(res.body.balances.find((b: { token: string }) => b.token === ETH)?.amount ?? '0') : null;
}

/** Error lines the servers log (a background pass that fails logs one). */
const errors: string[] = [];

async function start() {
  const s = await startTestServer({ chains, logLevel: 'error', logDestination: { write: (line: string) => void errors.push(line) } });
  servers.push(s);
  return s;
}

/** A fresh install whose new owner imports the export; a client acting on the imported business. */
async function importInto(passphrase?: string): Promise<{ server: TestServer; c: Client; report: Record<string, any> }> {
  const server = await start();
  const other = await server.signup({ entityName: 'Elsewhere' });
  const res = await other.post('/api/backups/import', { file: exportFile, ...(passphrase ? { passphrase } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { server, c: makeClient(server.url, { cookie: other.cookie, origin: server.url, 'x-entity-id': owner.entityId }), report: res.body };
}

beforeAll(async () => {
  devnet = await startDevnet();
  chains = { local: devnet.config as unknown as Record<string, unknown> };
  source = await start();
  owner = await source.signup({ entityName: 'Wallet Owner' });
  const init = await owner.post('/api/privacy/initialize', {});
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  await fund(init.body.accounts.find((x: { chain: string }) => x.chain === 'local').address, '3');
  const shield = await owner.post('/api/privacy/shield', { amount: parseEther('1').toString(), chain: 'local' });
  expect(shield.status, JSON.stringify(shield.body)).toBe(200);
  await until('the shielded note', source, async () => (await ethBalance(owner)) === parseEther('1'));
  expect((await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
  const exported = await owner.post(`/api/backups/export?entityId=${owner.entityId}`);
  expect(exported.status).toBe(201);
  expect(exported.body.secretsIncluded).toBe(true);
  exportFile = exported.body.file;
}, 180_000);

afterAll(async () => {
  for (const s of servers) {
    await closeProver(s.ctx);
    cleanupBackups(s);
    await s.close();
  }
  await devnet?.stop();
});

describe('the wallet of an imported business', () => {
  it('with the passphrase: spends the notes it shielded before the export', async () => {
    const { server, c, report } = await importInto(PASSPHRASE);
    expect(report.secrets.missing).toEqual([]);
    expect(report.secrets.restored).toBeGreaterThanOrEqual(2); // the shielded seed and the account's owner key
    const status = await c.get('/api/privacy/status');
    expect(status.body).toMatchObject({ initialized: true, keysUnavailable: false, heldElsewhere: false });
    // This install's relayer, made and funded here (it submits the withdrawal).
    const init = await c.post('/api/privacy/initialize', {});
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    expect(init.body.created).toBe(false);
    const relayer = (await c.get('/api/privacy/status')).body.chains.find((x: { chain: string }) => x.chain === 'local').relayerAddress as Address;
    await fund(relayer, '1');
    await until('the imported note', server, async () => (await ethBalance(c)) === parseEther('1'));

    const fresh = privateKeyToAddress(generatePrivateKey());
    const res = await c.post('/api/privacy/unshield', { amount: parseEther('0.25').toString(), recipient: fresh, chain: 'local' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await until('the withdrawal', server, async () => (await devnet.publicClient.getBalance({ address: fresh })) === parseEther('0.25'));
    await until('the balance after it', server, async () => (await ethBalance(c)) === parseEther('0.75'));
  }, 240_000);

  it('without the passphrase: the wallet says it cannot spend, with a clear 409 (no 500)', async () => {
    const { server, c, report } = await importInto();
    expect(report.secrets.restored).toBe(0);
    expect(report.secrets.missing).toEqual(expect.arrayContaining(['wallet_keys.seed_sealed', 'wallet_keys.owner_key_sealed']));
    for (const [method, p, body] of [
      ['post', '/api/privacy/unshield', { amount: parseEther('0.1').toString(), recipient: privateKeyToAddress(generatePrivateKey()), chain: 'local' }],
      ['post', '/api/privacy/shield', { amount: parseEther('0.1').toString(), chain: 'local' }],
      ['get', '/api/privacy/balance?chain=local', undefined],
    ] as const) {
      const res = method === 'get' ? await c.get(p) : await c.post(p, body);
      expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error).toMatch(/without the recovery passphrase/);
    }
    const status = await c.get('/api/privacy/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ initialized: true, keysUnavailable: true, heldElsewhere: false });
    // The indexer leaves this wallet out rather than failing every pass.
    errors.length = 0;
    await server.ctx.loops.runAll();
    expect(errors.filter((l) => l.includes('background loop failed'))).toEqual([]);
  }, 120_000);
});
