// The wallet where it meets a chain that changes under it, on the real devnet: a devnet restarted
// behind the same chain name (a reset: the wallet stops with a clear state until resynced, spending
// answers 409 instead of 500), and the books' public account equal to the chain's after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { makeClient, startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';

const ETH = '0x0000000000000000000000000000000000000000';
let devnet: Devnet;
let server: TestServer;
let a: SessionClient;
let b: SessionClient;
/** Holds only public funds: its books must follow a reset too. */
let c: SessionClient;
let dataDir: string;

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>): Promise<T> {
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

async function balanceOf(client: SessionClient): Promise<bigint> {
  const res = await client.get(`/api/privacy/balance?chain=local&token=${ETH}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return BigInt(res.body.balances[0].amount);
}

async function accountBalance(client: SessionClient, code: string): Promise<bigint> {
  const tb = await client.get('/api/ledger/trial-balance');
  const row = tb.body.rows.find((r: { code: string; currency: string }) => r.code === code && r.currency === 'ETH/18');
  return row ? BigInt(row.balance.replace('.', '')) : 0n;
}

async function localStatus(client: SessionClient) {
  return (await client.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
}

/** The books' public account equals the business account's balance on chain at the indexed block. */
async function booksEqualChain(client: SessionClient): Promise<bigint> {
  const address = (await localStatus(client)).accountAddress as Address;
  return until('the public account in the books', async () => {
    const block = BigInt((await localStatus(client)).indexedBlock ?? '-1');
    if (block < 0n) return null;
    const onChain = await devnet.publicClient.getBalance({ address, blockNumber: block });
    return (await accountBalance(client, '1300')) === onChain ? onChain || 1n : null;
  });
}

function relogin(client: SessionClient): SessionClient {
  return { ...client, ...makeClient(server.url, { cookie: client.cookie, origin: server.url, 'x-entity-id': client.entityId }) };
}

async function restartServer(config: Devnet['config']) {
  await closeProver(server.ctx);
  await server.close();
  server = await startTestServer({ chains: { local: config as unknown as Record<string, unknown> }, dataDir });
  a = relogin(a);
  b = relogin(b);
  c = relogin(c);
}

async function setUp(client: SessionClient) {
  const init = await client.post('/api/privacy/initialize', { entityId: client.entityId });
  expect(init.status).toBe(200);
}

async function fundAll() {
  const status = await localStatus(a);
  await fund(status.accountAddress, '2');
  await fund(status.relayerAddress, '2');
}

async function shield(client: SessionClient, eth: string) {
  const res = await client.post('/api/privacy/shield', { entityId: client.entityId, amount: parseEther(eth).toString(), chain: 'local' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function send(from: SessionClient, to: SessionClient, eth: string) {
  const address = (await to.get('/api/privacy/status')).body.shieldedAddress;
  const bundle = await from.post('/api/privacy/prove-transfer', { entityId: from.entityId, recipientAddress: address, amount: parseEther(eth).toString(), chain: 'local' });
  return bundle;
}

beforeAll(async () => {
  devnet = await startDevnet();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-chain-reset-'));
  server = await startTestServer({ chains: { local: devnet.config as unknown as Record<string, unknown> }, dataDir });
  a = await server.signup({ entityName: 'Alpha' });
  b = await server.signup({ entityName: 'Beta' });
  await setUp(a);
  c = await server.signup({ entityName: 'Gamma' });
  await setUp(b);
  await setUp(c);
  await fundAll();
  await fund((await localStatus(c)).accountAddress, '1');
}, 120_000);

afterAll(async () => {
  if (server) {
    await closeProver(server.ctx);
    await server.close();
  }
  await devnet?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a devnet restarted behind the same chain name', () => {
  it('stops with a clear reset state instead of answering 500, and a resync brings it back', async () => {
    const first = await shield(a, '0.1');
    await until('the shield confirmed', async () => (await balanceOf(a)) === parseEther('0.1'));
    expect(first.noteCommitment).toMatch(/^0x/);
    await booksEqualChain(a);
    await booksEqualChain(c);
    const publicBefore = await accountBalance(a, '1300');
    const feesBefore = await accountBalance(a, '6700');

    // `npm run devnet` again: a new chain (same id, same contract addresses), the app restarted.
    await devnet.stop();
    devnet = await startDevnet();
    await restartServer(devnet.config);

    // The old note is not in the new chain's tree: spending it must not answer 500.
    const spend = await send(a, b, '0.05');
    expect(spend.status, JSON.stringify(spend.body)).toBe(409);
    expect(spend.body.error).toBe('This chain was reset: notes from before are gone');
    const status = await localStatus(a);
    expect(status).toMatchObject({ chainReset: true, problem: 'This chain was reset: notes from before are gone' });
    const unshield = await a.post('/api/privacy/unshield', { entityId: a.entityId, amount: parseEther('0.01').toString(), chain: 'local' });
    expect(unshield.status).toBe(409);
    const balance = await a.get(`/api/privacy/balance?chain=local&token=${ETH}`);
    expect(balance.status).toBe(200);
    expect(balance.body.balances[0]).toMatchObject({ amount: '0', unavailable: parseEther('0.1').toString(), unavailableReason: 'This chain was reset: notes from before are gone' });

    // Resync: the wallet's notes and tree rebuilt from the new chain, keys kept.
    const shieldedAddress = (await a.get('/api/privacy/status')).body.shieldedAddress;
    const resync = await a.post('/api/privacy/resync', { entityId: a.entityId, chain: 'local' });
    expect(resync.status, JSON.stringify(resync.body)).toBe(200);
    expect(resync.body).toMatchObject({ success: true, chain: 'local', wasReset: true });
    expect((await a.get('/api/privacy/status')).body.shieldedAddress).toBe(shieldedAddress);
    expect(await localStatus(a)).toMatchObject({ chainReset: false, problem: null });
    expect(await balanceOf(a)).toBe(0n);
    // The books: what the reset chain undid is reversed as such, not as network fees.
    expect(await accountBalance(a, '1310')).toBe(0n);
    await booksEqualChain(a);
    expect(await accountBalance(a, '6700')).toBe(feesBefore);
    const resets = (server.ctx.sqlite.prepare("select payload from ledger_events where entity_id = ? and type = 'chain_reset' order by created_at").all(a.entityId) as { payload: string }[]).map((r) => JSON.parse(r.payload));
    // The new chain's account holds nothing yet: all the public funds went with the old chain.
    expect(resets.map((r) => ({ ...r, amount: parseEther(r.amount) })).sort((x, y) => x.account.localeCompare(y.account))).toEqual([
      { account: '1300', currency: 'ETH/18', amount: publicBefore, chain: 'local' },
      { account: '1310', currency: 'ETH/18', amount: parseEther('0.1'), chain: 'local' },
      // A's relayer (funded 2 ETH by fundAll, no relay yet) went with the old chain too: a reversal, not gas.
      { account: '1320', currency: 'ETH/18', amount: parseEther('2'), chain: 'local' },
    ]);
    await booksEqualChain(c);
    expect(await accountBalance(c, '1300')).toBe(0n);
    expect(await accountBalance(c, '6700')).toBe(0n);
    const journal = await a.get('/api/ledger/journal');
    expect(JSON.stringify(journal.body)).toContain('Reversal: public wallet funds on local undone by a chain reset');

    // The wallet works on the new chain: fund, shield, send.
    await fundAll();
    await shield(a, '0.2');
    await until('the new shield', async () => (await balanceOf(a)) === parseEther('0.2'));
    const bundle = await send(a, b, '0.05');
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
    const { success: _s, proofId: _p, ...payload } = bundle.body;
    const relayed = await server.anon.post('/api/relay/transfer', payload);
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
    await until("B's received note", async () => (await balanceOf(b)) === parseEther('0.05'));
    expect(await balanceOf(a)).toBe(parseEther('0.15'));
    await booksEqualChain(a);
    expect(await accountBalance(a, '1310')).toBe(parseEther('0.15'));
  }, 240_000);
});

describe('a transfer in flight', () => {
  it('refuses a resync with 409 until the transfer is confirmed', async () => {
    await devnet.publicClient.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    try {
      const bundle = await send(a, b, '0.01');
      expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
      const { success: _s, proofId: _p, ...payload } = bundle.body;
      const relayed = await server.anon.post('/api/relay/transfer', payload);
      expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
      const resync = await a.post('/api/privacy/resync', { entityId: a.entityId, chain: 'local' });
      expect(resync.status, JSON.stringify(resync.body)).toBe(409);
      expect(resync.body.error).toBe('A transfer is in flight on local: resync once it is confirmed or has failed');
    } finally {
      await devnet.publicClient.request({ method: 'evm_setAutomine' as never, params: [true] as never });
      await devnet.publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    }
    await until("B's second note", async () => (await balanceOf(b)) === parseEther('0.06'));
    expect(await balanceOf(a)).toBe(parseEther('0.14'));
    // Nothing in flight: a resync of a healthy chain finds the same notes and changes no books.
    const shieldedBooks = await accountBalance(a, '1310');
    const resync = await a.post('/api/privacy/resync', { entityId: a.entityId, chain: 'local' });
    expect(resync.status, JSON.stringify(resync.body)).toBe(200);
    expect(resync.body.wasReset).toBe(false);
    expect(await balanceOf(a)).toBe(parseEther('0.14'));
    expect(await accountBalance(a, '1310')).toBe(shieldedBooks);
    await booksEqualChain(a);
  }, 120_000);
});

describe('a reorganisation (anvil snapshot/revert)', () => {
  it('rolls the index back to the fork point: notes and books equal a wallet that only saw the surviving chain', async () => {
    const snapshot = await devnet.publicClient.request({ method: 'evm_snapshot' as never, params: [] as never });
    await shield(a, '0.1');
    await until('the shield in the orphaned blocks', async () => (await balanceOf(a)) === parseEther('0.24'));
    await booksEqualChain(a);
    expect(await accountBalance(a, '1310')).toBe(parseEther('0.24'));

    // The surviving chain: back to before the shield, then other blocks (longer than the orphaned branch).
    await devnet.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    const other = await devnet.deployer.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: 1n });
    await devnet.publicClient.waitForTransactionReceipt({ hash: other });
    await devnet.publicClient.request({ method: 'anvil_mine' as never, params: ['0x5'] as never });

    await until('the rolled-back balance', async () => (await balanceOf(a)) === parseEther('0.14'));
    expect(await localStatus(a)).toMatchObject({ chainReset: false, problem: null });
    const shieldRow = (await a.get('/api/privacy/history')).body.items.find((h: { kind: string; amount: string }) => h.kind === 'shielded' && h.amount === parseEther('0.1').toString());
    expect(shieldRow).toMatchObject({ status: 'failed', error: 'Undone by a chain reorganisation' });

    // A wallet that only saw the surviving chain: a fresh index with A's keys.
    const { PoolIndexer } = await import('../../server/privacy/indexer.js');
    const { loadEntityWallet } = await import('../../server/wallet/wallet-keys.js');
    const fresh = new PoolIndexer({ client: devnet.publicClient, chainId: 31337n, pool: devnet.config.pool as Address, fromBlock: BigInt(devnet.config.poolDeployBlock) });
    await fresh.sync();
    const expected = fresh.unspentNotes(loadEntityWallet(server.ctx, a.entityId).keys, 0n).map((n) => `0x${n.commitment.toString(16).padStart(64, '0')}`);
    const notes = (await a.get('/api/privacy/notes?chain=local')).body.notes.map((n: { commitment: string }) => n.commitment);
    expect([...notes].sort()).toEqual([...expected].sort());
    expect((await localStatus(a)).leaves).toBe(fresh.commitments.length);
    expect(await accountBalance(a, '1310')).toBe(parseEther('0.14'));
    await booksEqualChain(a);
  }, 120_000);
});

describe('a chains file that points at another chain', () => {
  it('says so in status and answers spending with a clear 409, never 500', async () => {
    const other = await startTestServer({ chains: { local: { ...devnet.config, chainId: 31338 } as unknown as Record<string, unknown> } });
    try {
      const c = await other.signup({ entityName: 'Gamma' });
      expect((await c.post('/api/privacy/initialize', { entityId: c.entityId })).status).toBe(200);
      const spend = await c.post('/api/privacy/unshield', { entityId: c.entityId, amount: '1', chain: 'local' });
      expect(spend.status, JSON.stringify(spend.body)).toBe(409);
      expect(spend.body.error).toBe("The chain's RPC answers chain id 31337; the configuration says 31338");
      const status = (await c.get('/api/privacy/status')).body.chains.find((x: { chain: string }) => x.chain === 'local');
      expect(status.problem).toBe("The chain's RPC answers chain id 31337; the configuration says 31338");
      const resync = await c.post('/api/privacy/resync', { entityId: c.entityId, chain: 'local' });
      expect(resync.status).toBe(409);
    } finally {
      await closeProver(other.ctx);
      await other.close();
    }
  }, 60_000);
});

describe('the same RPC serving a new chain (anvil_reset)', () => {
  it('is a reset: another genesis block behind the same URL', async () => {
    await devnet.publicClient.request({ method: 'anvil_reset' as never, params: [] as never });
    await server.ctx.loops.runAll();
    const spend = await send(a, b, '0.01');
    expect(spend.status, JSON.stringify(spend.body)).toBe(409);
    expect(spend.body.error).toBe('This chain was reset: notes from before are gone');
    expect(await localStatus(a)).toMatchObject({ chainReset: true });
    const balance = (await a.get(`/api/privacy/balance?chain=local&token=${ETH}`)).body.balances[0];
    expect(balance).toMatchObject({ amount: '0', unavailable: parseEther('0.14').toString() });
    // The new chain has no pool yet: the resync cannot index it, says so, and changes nothing.
    const resync = await a.post('/api/privacy/resync', { entityId: a.entityId, chain: 'local' });
    expect(resync.status, JSON.stringify(resync.body)).toBe(502);
    expect(resync.body.error).toBe('Chain indexer could not sync');
    expect(await localStatus(a)).toMatchObject({ chainReset: true });
    expect((await a.get('/api/privacy/notes?chain=local')).body.notes.length).toBeGreaterThan(0);
  }, 60_000);
});
