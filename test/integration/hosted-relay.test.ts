// The hosted relay on the real devnet (anvil + EntryPoint v0.8 + Alto + our pool) with real
// on-device proofs: entity A on device 1 and entity B on device 2, both linked to one hosted
// instance; A sends privately to B through the hosted relayer, which the pool repays from the
// bundle's fee; every refusal the contract names is produced for real, before any gas is spent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { spawn } from 'node:child_process';
import { startDevnet, deployPool, type Devnet } from '../helpers/devnet.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { startPostgres } from '../helpers/postgres.js';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { relayJobs } from '../../server/hosted/schema.js';
import { closeProver } from '../../server/wallet/index.js';
import { shieldedPoolAbi } from '../../server/privacy/contract-abis.js';

const ETH = '0x0000000000000000000000000000000000000000';
const entryPointAbi = [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ type: 'uint256' }] }] as const;
const harnessAbi = [
  { type: 'function', name: 'insertPairForTest', stateMutability: 'nonpayable', inputs: [{ name: 'left', type: 'uint256' }, { name: 'right', type: 'uint256' }], outputs: [] },
] as const;

let devnet: Devnet;
let hosted: RunningHosted;
let bare: RunningHosted;
let device1: TestServer;
let device2: TestServer;
let a: SessionClient;
let b: SessionClient;
let harnessPool: Address;
let relayer: Address;
let hostedDir: string;
const dirs: string[] = [];
/** The hosted instance's clock: tests move it to expire quotes and jobs and to open a new rate window. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
/** Everything the hosted instance logged (debug level): it must never hold bundle contents. */
let hostedLog = '';
/** Requests the desktops made to the hosted relay: no credentials on any of them. */
const relayCalls: { url: string; headers: Record<string, string> }[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-relay-'));
  dirs.push(dir);
  return dir;
}

async function until<T>(what: string, servers: TestServer[], check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    for (const s of servers) await s.ctx.loops.runAll();
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function balanceOf(client: SessionClient, chain: string): Promise<bigint> {
  const res = await client.get(`/api/privacy/balance?chain=${chain}&token=${ETH}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return BigInt(res.body.balances[0].amount);
}

/** What the relayer holds: its balance and its deposit at the EntryPoint (UserOperation refunds land there). */
async function relayerFunds(): Promise<bigint> {
  const [balance, deposit] = await Promise.all([
    devnet.publicClient.getBalance({ address: relayer }),
    devnet.publicClient.readContract({ address: devnet.config.entryPoint as Address, abi: entryPointAbi, functionName: 'balanceOf', args: [relayer] }),
  ]);
  return balance + deposit;
}

async function fund(address: Address, eth: string) {
  const hash = await devnet.deployer.sendTransaction({ to: address, value: parseEther(eth) });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
}

async function hostedCall(method: 'GET' | 'POST', p: string, body?: unknown, raw?: string) {
  const res = await fetch(`${hosted.url}${p}`, { method, headers: body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

async function jobCount(): Promise<number> {
  return (await hosted.ctx.store.db.select().from(relayJobs)).length;
}

async function linkDevice(onDevice: SessionClient) {
  const linked = await onDevice.post('/api/sync/link', { hostedUrl: hosted.url, email: onDevice.email, password: onDevice.password });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
}

/** A bundle of A to B proved on the hosted relay's current quote (nothing relayed). */
async function proveAToB(amount: bigint, chain = 'local') {
  const bAddress = (await b.get('/api/privacy/status')).body.shieldedAddress;
  const res = await a.post('/api/privacy/prove-transfer', { recipientAddress: bAddress, amount: amount.toString(), chain });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { success: _s, proofId: _p, ...bundle } = res.body;
  return bundle as Record<string, unknown> & { relayer: string; fee: string; nullifierHashes: string[]; quote: { expiresAt: string; signature: string } };
}

beforeAll(async () => {
  devnet = await startDevnet();
  const harness = await deployPool(devnet.deployer, devnet.publicClient, { harness: true });
  harnessPool = harness.pool;
  const chains = {
    local: devnet.config as unknown as Record<string, unknown>,
    harness: { ...devnet.config, pool: harness.pool, poolDeployBlock: Number(harness.deployBlock) } as unknown as Record<string, unknown>,
  };
  const logSink = new Writable({
    write(chunk, _enc, done) {
      hostedLog += String(chunk);
      done();
    },
  });
  hostedDir = tempDir();
  hosted = await startHosted({ port: 0, dataDir: hostedDir, chains, clock, logLevel: 'debug', logDestination: logSink });
  bare = await startHosted({ port: 0, dataDir: tempDir(), logLevel: 'silent' });
  device1 = await startTestServer({ chains });
  device2 = await startTestServer({ chains });
  a = await device1.signup({ entityName: 'Alpha' });
  b = await device2.signup({ entityName: 'Beta' });
  await linkDevice(a);
  await linkDevice(b);
  const initA = await a.post('/api/privacy/initialize', {});
  expect(initA.status, JSON.stringify(initA.body)).toBe(200);
  expect((await b.post('/api/privacy/initialize', {})).status).toBe(200);
  const accountA = initA.body.accounts.find((x: { chain: string }) => x.chain === 'local').address as Address;
  await fund(accountA, '5');

  // The desktops' calls to the hosted relay, as they leave the process.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(`${hosted.url}/api/relay/`)) relayCalls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    return realFetch(input, init);
  }) as typeof fetch;

  const shield = await a.post('/api/privacy/shield', { amount: parseEther('1').toString(), chain: 'local' });
  expect(shield.status, JSON.stringify(shield.body)).toBe(200);
  const shieldHarness = await a.post('/api/privacy/shield', { amount: parseEther('0.05').toString(), chain: 'harness' });
  expect(shieldHarness.status, JSON.stringify(shieldHarness.body)).toBe(200);
  await until("A's shields", [device1], async () => (await balanceOf(a, 'local')) === parseEther('1') && (await balanceOf(a, 'harness')) === parseEther('0.05'));
}, 180_000);

afterAll(async () => {
  for (const s of [device1, device2]) {
    if (!s) continue;
    await closeProver(s.ctx);
    await s.close();
  }
  await hosted?.close();
  await bare?.close();
  await devnet?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('the hosted relay on the devnet', () => {
  it('quotes a fee for its own relayer, signed, with a deadline and an expiry', async () => {
    const quote = await hostedCall('GET', '/api/relay/quote?chain=local');
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toMatchObject({ chain: 'local', chainId: devnet.config.chainId, token: ETH, relayer: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), fee: expect.stringMatching(/^[1-9]\d*$/) });
    expect(quote.body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(Date.parse(quote.body.expiresAt)).toBeGreaterThan(Date.now());
    expect(Number(quote.body.deadline) * 1000).toBeGreaterThan(Date.parse(quote.body.expiresAt));
    relayer = quote.body.relayer;
    // The relayer's owner key is in a 0600 file in the data dir, never in the log.
    const keyFile = path.join(hostedDir, 'relayer.key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(hostedLog).not.toContain(fs.readFileSync(keyFile, 'utf8').trim().slice(2));
    // The desktop of a linked entity shows the hosted relayer and its fee; an unlinked one its own relayer.
    const preview = await a.get('/api/privacy/relay-quote?chain=local');
    expect(preview.body).toMatchObject({ via: 'hosted', relayer, chain: 'local' });
    const unlinked = await device1.signup({ entityName: 'Gamma' });
    const own = await unlinked.get('/api/privacy/relay-quote?chain=local');
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body).toMatchObject({ via: 'own', fee: '0', expiresAt: null });
    expect(own.body.relayer).not.toBe(relayer);
    await fund(relayer, '1');
  }, 60_000);

  it('A sends privately to B through the hosted relay; B receives; the relayer earns the fee minus gas', async () => {
    const bundle = await proveAToB(parseEther('0.3'));
    expect(bundle.relayer).toBe(relayer);
    const fee = BigInt(bundle.fee);
    expect(fee).toBeGreaterThan(0n);
    expect(bundle.quote.signature).toMatch(/^0x/);
    const before = await relayerFunds();

    // The UI's path: the bundle goes to the desktop's relay route, which hands it to the entity's hosted relay.
    const relayed = await device1.anon.post('/api/relay/transfer', bundle);
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
    expect(relayed.body).toMatchObject({ success: true, replayed: false, via: 'hosted', relayer, fee: bundle.fee });
    expect(relayed.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    // No device token and no cookie on any relay call.
    expect(relayCalls.length).toBeGreaterThan(0);
    for (const call of relayCalls) expect(Object.keys(call.headers)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(authorization|cookie)$/)]));

    const job = await until('the relay job confirmed', [device1], async () => {
      const res = await a.get(`/api/privacy/relay-jobs/${relayed.body.jobId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.status === 'confirmed' ? res.body : null;
    });
    expect(job).toMatchObject({ id: relayed.body.jobId, chain: 'local', userOpHash: relayed.body.userOpHash, fee: bundle.fee, error: null });
    const gasCost = BigInt(job.gasCost);
    expect(gasCost).toBeGreaterThan(0n);
    expect(fee).toBeGreaterThan(gasCost);
    const after = await relayerFunds();
    expect(after - before).toBe(fee - gasCost);
    console.log(`hosted relay: fee ${fee} wei, gas ${gasCost} wei, relayer ${before} -> ${after} (+${after - before})`);

    await until("B's received note", [device2], async () => (await balanceOf(b, 'local')) === parseEther('0.3'));
    await until("A's change", [device1], async () => (await balanceOf(a, 'local')) === parseEther('0.7') - fee);
    const sent = await until("A's sent activity confirmed", [device1], async () => (await a.get('/api/privacy/history')).body.items.find((h: { kind: string; status: string }) => h.kind === 'sent' && h.status === 'confirmed'));
    expect(sent).toMatchObject({ fee: bundle.fee, userOpHash: relayed.body.userOpHash });

    // An identical bundle is answered with the same job: nothing is submitted twice.
    const again = await hostedCall('POST', '/api/relay/transfer', bundle);
    expect(again.body).toEqual({ success: true, userOpHash: relayed.body.userOpHash, replayed: true, jobId: relayed.body.jobId, relayer, fee: bundle.fee });
    expect(await jobCount()).toBe(1);
    expect(await relayerFunds()).toBe(after);

    // Once the relay has forgotten the job (a week on), a replay meets the pool's nullifier set.
    await hosted.ctx.store.db.delete(relayJobs);
    const replayed = await hostedCall('POST', '/api/relay/transfer', bundle);
    expect(replayed).toMatchObject({ status: 409, body: { error: 'Spent nullifier' } });
    expect(await jobCount()).toBe(0);
    expect(await relayerFunds()).toBe(after);

    // A withdrawal of a linked entity goes through the hosted relay too, its fee from the shielded funds.
    const fresh = privateKeyToAddress(generatePrivateKey());
    const beforeUnshield = await balanceOf(a, 'local');
    const unshield = await a.post('/api/privacy/unshield', { amount: parseEther('0.05').toString(), recipient: fresh, chain: 'local' });
    expect(unshield.status, JSON.stringify(unshield.body)).toBe(200);
    expect(unshield.body).toMatchObject({ via: 'hosted', relayer, recipient: fresh });
    await until('the withdrawal', [device1], async () => (await devnet.publicClient.getBalance({ address: fresh })) === parseEther('0.05'));
    await until("A's balance after the withdrawal", [device1], async () => (await balanceOf(a, 'local')) === beforeUnshield - parseEther('0.05') - BigInt(unshield.body.fee));
    expect(await jobCount()).toBe(1);

    // The relay stores no client IP, and logs nothing of a bundle.
    for (const secret of [...bundle.nullifierHashes, bundle.proof as string, (bundle.encryptedNotesRecipient as string[])[0]]) expect(hostedLog).not.toContain((secret as string).slice(2, 40));
    expect(hostedLog).not.toContain('127.0.0.1');
  }, 180_000);

  it('refuses an expired quote, an unknown quote and a bundle without one, spending no gas', async () => {
    const jobs = await jobCount();
    const bundle = await proveAToB(parseEther('0.01'));
    const funds = await relayerFunds();
    // One bit of the signature's last byte of s flipped (setting it to 00 left it unchanged when it already was: 1 run in 256).
    const signature = bundle.quote.signature;
    const flipped = (parseInt(signature.slice(-4, -2), 16) ^ 1).toString(16).padStart(2, '0');
    const forged = { ...bundle, quote: { ...bundle.quote, signature: `${signature.slice(0, -4)}${flipped}${signature.slice(-2)}` } };
    expect(await hostedCall('POST', '/api/relay/transfer', forged)).toMatchObject({ status: 400, body: { error: 'Unknown relay quote' } });
    const { quote: _q, ...unquoted } = bundle;
    expect(await hostedCall('POST', '/api/relay/transfer', unquoted)).toMatchObject({ status: 400, body: { error: 'Unknown relay quote' } });
    // A quote's expiry is signed: moving it is an unknown quote, not a longer one.
    const later = { ...bundle, quote: { ...bundle.quote, expiresAt: new Date(Date.parse(bundle.quote.expiresAt) + 3600_000).toISOString() } };
    expect(await hostedCall('POST', '/api/relay/transfer', later)).toMatchObject({ status: 400, body: { error: 'Unknown relay quote' } });

    clock.offsetMs = 6 * 60_000;
    try {
      const expired = await device1.anon.post('/api/relay/transfer', bundle);
      expect(expired).toMatchObject({ status: 400, body: { error: 'Relay quote expired' } });
    } finally {
      clock.offsetMs = 0;
    }
    // The bundle can never be relayed: its history row says why, and its notes are spendable again.
    const row = (await a.get('/api/privacy/history')).body.items.find((h: { kind: string; status: string; amount: string }) => h.kind === 'sent' && h.amount === parseEther('0.01').toString());
    expect(row).toMatchObject({ status: 'failed', error: 'Relay quote expired' });
    expect(await jobCount()).toBe(jobs);
    expect(await relayerFunds()).toBe(funds);
  }, 120_000);

  it('refuses a fee that no longer covers gas, and the desktop re-quotes', async () => {
    const jobs = await jobCount();
    const bundle = await proveAToB(parseEther('0.01'));
    const funds = await relayerFunds();
    const gasPrice = (await devnet.publicClient.estimateFeesPerGas()).maxFeePerGas;
    await devnet.publicClient.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [`0x${(gasPrice * 20n).toString(16)}`] as never });
    await devnet.publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    try {
      const res = await device1.anon.post('/api/relay/transfer', bundle);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject({ error: 'Relay fee no longer covers gas', details: { fee: bundle.fee } });
      expect(BigInt(res.body.details.required)).toBeGreaterThan(BigInt(bundle.fee));
      // A new quote charges today's gas.
      const requote = await a.get('/api/privacy/relay-quote?chain=local');
      expect(BigInt(requote.body.fee)).toBeGreaterThan(BigInt(res.body.details.required));
    } finally {
      await devnet.publicClient.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [`0x${gasPrice.toString(16)}`] as never });
      await devnet.publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    }
    expect(await jobCount()).toBe(jobs);
    expect(await relayerFunds()).toBe(funds);
  }, 120_000);

  it('refuses a root older than the last 100 insertions', async () => {
    const jobs = await jobCount();
    const bundle = await proveAToB(parseEther('0.01'), 'harness');
    for (let i = 0; i < 101; i++) {
      const hash = await devnet.deployer.writeContract({ address: harnessPool, abi: harnessAbi, functionName: 'insertPairForTest', args: [BigInt(2 * i + 1), BigInt(2 * i + 2)] });
      if (i === 100) await devnet.publicClient.waitForTransactionReceipt({ hash });
    }
    expect(await devnet.publicClient.readContract({ address: harnessPool, abi: shieldedPoolAbi, functionName: 'isKnownRoot', args: [BigInt(bundle.root as string)] })).toBe(false);
    const funds = await relayerFunds();
    const res = await device1.anon.post('/api/relay/transfer', bundle);
    expect(res).toMatchObject({ status: 409, body: { error: 'Invalid Merkle root' } });
    expect(await jobCount()).toBe(jobs);
    expect(await relayerFunds()).toBe(funds);
  }, 180_000);

  it('refuses a deposit and a bundle past its deadline', async () => {
    const jobs = await jobCount();
    const bundle = await proveAToB(parseEther('0.01'));
    expect(await hostedCall('POST', '/api/relay/transfer', { ...bundle, extAmount: '5' })).toMatchObject({ status: 400, body: { error: 'Deposits cannot be relayed: shield from the depositing account' } });
    expect(await hostedCall('POST', '/api/relay/transfer', { ...bundle, deadline: '1000' })).toMatchObject({ status: 400, body: { error: 'Bundle expired: prove again' } });
    expect(await jobCount()).toBe(jobs);

    // The same bundle twice at once: one UserOperation, one job, both answers name it.
    const [first, second] = await Promise.all([hostedCall('POST', '/api/relay/transfer', bundle), hostedCall('POST', '/api/relay/transfer', bundle)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.replayed, second.body.replayed].sort()).toEqual([false, true]);
    expect(second.body.jobId).toBe(first.body.jobId);
    expect(second.body.userOpHash).toBe(first.body.userOpHash);
    expect(await jobCount()).toBe(jobs + 1);
    await until('the job confirmed', [], async () => (await hostedCall('GET', `/api/relay/jobs/${first.body.jobId}`)).body.status === 'confirmed');
  }, 60_000);

  it('the 21st transfer request in a minute from one address is refused', async () => {
    clock.offsetMs = 20 * 60_000; // a fresh window, after every request so far (the expiry test moved the clock on)
    try {
      for (let i = 0; i < 20; i++) {
        const res = await hostedCall('POST', '/api/relay/transfer', undefined, '{"not json');
        expect(res.status).toBe(400);
      }
      const limited = await hostedCall('POST', '/api/relay/transfer', {});
      expect(limited).toMatchObject({ status: 429, body: { error: 'Too many relay requests; try again later' } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Quotes and jobs have their own, larger allowance.
      expect((await hostedCall('GET', '/api/relay/quote?chain=local')).status).toBe(200);
    } finally {
      clock.offsetMs = 30 * 60_000; // past this window for the tests after
    }
  });
});

describe('bad input', () => {
  it('malformed bundles, unknown and expired jobs, quotes it cannot give: each an {error} with its status', async () => {
    const malformed = await hostedCall('POST', '/api/relay/transfer', { proof: '0x12', root: 'nope' });
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.error).toBe('string');
    expect(malformed.body.details.length).toBeGreaterThan(0);
    expect((await hostedCall('POST', '/api/relay/transfer', [1, 2])).status).toBe(400);
    expect(await hostedCall('POST', '/api/relay/transfer', { chain: 'nowhere' })).toMatchObject({ status: 400 });

    expect(await hostedCall('GET', '/api/relay/jobs/not-a-uuid')).toMatchObject({ status: 400, body: { error: expect.stringContaining('relay job id') } });
    expect(await hostedCall('GET', '/api/relay/jobs/0190a0a0-0000-7000-8000-000000000000')).toMatchObject({ status: 404, body: { error: 'Unknown relay job' } });
    expect(await a.get('/api/privacy/relay-jobs/0190a0a0-0000-7000-8000-000000000000')).toMatchObject({ status: 404, body: { error: 'Unknown relay job' } });

    // A job is kept a week.
    const now = new Date().toISOString();
    const id = '0190a0a0-0000-7000-8000-000000000001';
    await hosted.ctx.store.db.insert(relayJobs).values({ id, chain: 'local', nullifierKey: 'x', status: 'confirmed', token: ETH, fee: '1', createdAt: now, updatedAt: now });
    expect((await hostedCall('GET', `/api/relay/jobs/${id}`)).status).toBe(200);
    const offset = clock.offsetMs;
    clock.offsetMs = 8 * 24 * 3600_000;
    try {
      expect(await hostedCall('GET', `/api/relay/jobs/${id}`)).toMatchObject({ status: 404, body: { error: 'Unknown relay job' } });
    } finally {
      clock.offsetMs = offset;
      await hosted.ctx.store.db.delete(relayJobs);
    }

    expect(await hostedCall('GET', '/api/relay/quote?chain=nowhere')).toMatchObject({ status: 503, body: { error: 'Wallet infrastructure not configured' } });
    expect(await hostedCall('GET', `/api/relay/quote?chain=local&token=${devnet.config.token}`)).toMatchObject({ status: 400, body: { error: 'The hosted relay takes its fee in the native coin only' } });
    expect(await hostedCall('GET', '/api/relay/quote?chain=local&token=xyz')).toMatchObject({ status: 400 });
  });

  it('a hosted instance without chain configuration answers 503 on every relay route', async () => {
    for (const [method, p, body] of [
      ['GET', '/api/relay/quote?chain=local'],
      ['POST', '/api/relay/transfer', { proof: '0x' }],
      ['GET', '/api/relay/jobs/0190a0a0-0000-7000-8000-000000000000'],
    ] as const) {
      const res = await fetch(`${bare.url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      expect(res.status, p).toBe(503);
      expect(await res.json()).toEqual({ error: 'Wallet infrastructure not configured' });
    }
  });

  it('a relayer key file others can read, or that holds no key, stops the start', async () => {
    const dir = tempDir();
    const keyFile = path.join(dir, 'relayer.key');
    fs.writeFileSync(keyFile, `0x${'11'.repeat(32)}\n`, { mode: 0o644 });
    fs.chmodSync(keyFile, 0o644);
    const chains = { local: devnet.config as unknown as Record<string, unknown> };
    await expect(startHosted({ port: 0, dataDir: dir, chains, relayerKeyFile: keyFile, logLevel: 'silent' })).rejects.toThrow(/readable by its owner only/);
    fs.writeFileSync(keyFile, 'not a key');
    fs.chmodSync(keyFile, 0o600);
    await expect(startHosted({ port: 0, dataDir: dir, chains, relayerKeyFile: keyFile, logLevel: 'silent' })).rejects.toThrow(/must hold one 0x-prefixed 32-byte hex private key/);
  });

  it('a linked desktop whose hosted instance relays nothing on the chain uses its own relayer', async () => {
    const lone = await startTestServer({ chains: { local: devnet.config as unknown as Record<string, unknown> } });
    try {
      const c = await lone.signup({ entityName: 'Delta' });
      const linked = await c.post('/api/sync/link', { hostedUrl: bare.url, email: c.email, password: c.password });
      expect(linked.status, JSON.stringify(linked.body)).toBe(201);
      const preview = await c.get('/api/privacy/relay-quote?chain=local');
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body).toMatchObject({ via: 'own', fee: '0' });
    } finally {
      await lone.close();
    }
  });
});

describe('several hosted processes on one PostgreSQL', () => {
  it('share the relayer key file, and one bundle sent to two of them at once becomes one job and one UserOperation', async () => {
    const pg = await startPostgres();
    const opened: RunningHosted[] = [];
    try {
      const databaseUrl = await pg.createDatabase('relay');
      const options = { port: 0, databaseUrl, chains: { local: devnet.config as unknown as Record<string, unknown> }, relayerKeyFile: path.join(hostedDir, 'relayer.key'), logLevel: 'silent' };
      opened.push(await startHosted({ ...options, dataDir: tempDir() }));
      opened.push(await startHosted({ ...options, dataDir: tempDir() }));
      const [one, two] = opened;
      const quote = await (await fetch(`${one.url}/api/relay/quote?chain=local`)).json();
      expect(quote.relayer).toBe(relayer);

      // Proved on the PGlite instance's quote: the same key signs for every process that shares it.
      const bundle = await proveAToB(parseEther('0.01'));
      const post = (h: RunningHosted) => fetch(`${h.url}/api/relay/transfer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(bundle) }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const funds = await relayerFunds();
      const [first, second] = await Promise.all([post(one), post(two)]);
      expect([first.status, second.status], JSON.stringify([first.body, second.body])).toEqual([200, 200]);
      expect([first.body.replayed, second.body.replayed].sort()).toEqual([false, true]);
      expect(second.body).toMatchObject({ jobId: first.body.jobId, userOpHash: first.body.userOpHash });
      expect(await one.ctx.store.db.select().from(relayJobs)).toHaveLength(1);
      const job = await until('the job confirmed', [], async () => {
        const res = await (await fetch(`${two.url}/api/relay/jobs/${first.body.jobId}`)).json();
        return res.status === 'confirmed' ? res : null;
      });
      expect(await relayerFunds()).toBe(funds + BigInt(bundle.fee) - BigInt(job.gasCost));
    } finally {
      for (const h of opened) await h.close();
      await pg.stop();
    }
  }, 120_000);
});

describe('npm run hosted', () => {
  /** Starts `server/hosted/cli.ts` as `npm run hosted` does; resolves with its URL, or its output when it ends first. */
  function startCli(args: string[]): Promise<{ url: string | null; output: string; stop: () => Promise<void> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/hosted/cli.ts', '--port', '0', '--log-level', 'error', ...args], { cwd: process.cwd(), env: { ...process.env, DATABASE_URL: '' } });
    let output = '';
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    };
    return new Promise((resolve) => {
      const seen = (d: Buffer) => {
        output += String(d);
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
        if (m) resolve({ url: m[0], output, stop });
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.once('exit', () => resolve({ url: null, output, stop }));
    });
  }

  it('takes its chains from --chains-file and keeps the relayer key in a 0600 file; a broken file stops it with the reason', async () => {
    const dir = tempDir();
    const chainsFile = path.join(dir, 'chains.json');
    fs.writeFileSync(chainsFile, JSON.stringify({ local: devnet.config }));
    const cli = await startCli(['--data-dir', path.join(dir, 'data'), '--chains-file', chainsFile]);
    try {
      expect(cli.url, cli.output).not.toBeNull();
      const quote = await fetch(`${cli.url}/api/relay/quote?chain=local`);
      expect(quote.status).toBe(200);
      expect(await quote.json()).toMatchObject({ chain: 'local', chainId: devnet.config.chainId });
      expect(fs.statSync(path.join(dir, 'data', 'relayer.key')).mode & 0o777).toBe(0o600);
      expect(cli.output).not.toContain(fs.readFileSync(path.join(dir, 'data', 'relayer.key'), 'utf8').trim().slice(2));
    } finally {
      await cli.stop();
    }
    fs.writeFileSync(chainsFile, JSON.stringify({ local: { ...devnet.config, pool: 'not an address' } }));
    const broken = await startCli(['--data-dir', path.join(dir, 'data2'), '--chains-file', chainsFile]);
    await broken.stop();
    expect(broken.url).toBeNull();
    expect(broken.output).toMatch(/chain "local" is invalid: pool/);
  }, 60_000);
});

