// Failures a user can act on and a faster Confirm, on the real devnet: each business relays through
// its own relayer (its gas booked in its books), a relay that failed while the bundler was down is
// tried again with the same proof (or proved again once that proof can no longer land), a prepared
// proof is used only for exactly its transfer, and a transfer a reorganisation undid is booked
// once more — once — when a later block mines it again.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';

const ETH = '0x0000000000000000000000000000000000000000';
let devnet: Devnet;
let server: TestServer;
let a: SessionClient;
let b: SessionClient;
let dataDir: string;
let proxy: http.Server;
/** The bundler as the wallet sees it: down while true. */
let bundlerDown = false;

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    await server.ctx.loops.runAll();
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Forwards JSON-RPC to the real bundler, or drops the connection while `bundlerDown`. */
function startBundlerProxy(target: string): Promise<string> {
  proxy = http.createServer((req, res) => {
    if (bundlerDown) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()))
        .catch(() => req.socket.destroy());
    });
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
}

/**
 * What each business's relayer is funded with (as in wallet-devnet). On the devnet each relay's gas
 * price is about twice the one before (anvil suggests the lowest tip of the latest block, and the
 * only transactions there are our bundles), so the eighth relay here costs ~0.26 ETH and the ninth
 * is refused for want of prefund with 1 ETH.
 */
const RELAYER_FUNDING = '5';

const fund = async (address: Address, eth: string) => {
  const hash = await devnet.deployer.sendTransaction({ to: address, value: parseEther(eth) });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
};
const status = async (c: SessionClient) => (await c.get('/api/privacy/status')).body.chains.find((x: { chain: string }) => x.chain === 'local');
const balanceOf = async (c: SessionClient) => BigInt((await c.get(`/api/privacy/balance?chain=local&token=${ETH}`)).body.balances[0].amount);
const history = async (c: SessionClient) => (await c.get('/api/privacy/history?chain=local')).body.items as { id: string; status: string; kind: string; error: string | null; relayError: string | null; canRetry: boolean; txHash: string | null }[];
const addressOf = async (c: SessionClient) => (await c.get('/api/privacy/status')).body.shieldedAddress as string;

async function accountBalance(c: SessionClient, code: string): Promise<bigint> {
  const tb = await c.get('/api/ledger/trial-balance');
  const row = tb.body.rows.find((r: { code: string; currency: string }) => r.code === code && r.currency === 'ETH/18');
  return row ? BigInt(row.balance.replace('.', '')) : 0n;
}

/** Ledger events of the wallet activity, as stored: [type, posting status]. */
function bookingsOf(entityId: string, activityId: string): { type: string; status: string }[] {
  return server.ctx.sqlite
    .prepare("select type, posting_status as status from ledger_events where entity_id = ? and json_extract(payload, '$.reference') = ? order by created_at")
    .all(entityId, `wallet-activity:${activityId}`) as { type: string; status: string }[];
}

const transfer = (to: string, eth: string) => ({ kind: 'send', chain: 'local', token: ETH, amount: parseEther(eth).toString(), recipient: to });

beforeAll(async () => {
  devnet = await startDevnet();
  const bundlerUrl = await startBundlerProxy(devnet.config.bundlerUrl as string);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-relay-retry-'));
  server = await startTestServer({ chains: { local: { ...devnet.config, bundlerUrl } as unknown as Record<string, unknown> }, dataDir });
  a = await server.signup({ entityName: 'Alpha' });
  b = await server.signup({ entityName: 'Beta' });
  for (const c of [a, b]) expect((await c.post('/api/privacy/initialize', { entityId: c.entityId })).status).toBe(200);
  for (const c of [a, b]) {
    const s = await status(c);
    await fund(s.accountAddress, '2');
    await fund(s.relayerAddress, RELAYER_FUNDING);
  }
  const shield = await a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('0.5').toString(), chain: 'local' });
  expect(shield.status, JSON.stringify(shield.body)).toBe(200);
  await until('the shield', async () => (await balanceOf(a)) === parseEther('0.5'));
}, 180_000);

afterAll(async () => {
  if (server) {
    await closeProver(server.ctx);
    await server.close();
  }
  proxy?.close();
  await devnet?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('each business its own relayer', () => {
  it('relays through the sending business’s relayer and books its gas in that business’s books', async () => {
    const [sa, sb] = [await status(a), await status(b)];
    expect(sa.relayerAddress).toMatch(/^0x/);
    expect(sa.relayerAddress).not.toBe(sb.relayerAddress);
    const before = { a: await devnet.publicClient.getBalance({ address: sa.relayerAddress }), b: await devnet.publicClient.getBalance({ address: sb.relayerAddress }) };
    const sent = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(await addressOf(b), '0.05') });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ via: 'own', relayer: sa.relayerAddress, usedPrepared: false, reproveReason: 'none' });
    await until("B's note", async () => (await balanceOf(b)) === parseEther('0.05'));
    expect(await devnet.publicClient.getBalance({ address: sa.relayerAddress })).toBeLessThan(before.a);
    expect(await devnet.publicClient.getBalance({ address: sb.relayerAddress })).toBe(before.b);
    // The books' relayer account equals the relayer's balance at the indexed block; the gas is a network fee.
    await until("A's relayer account in the books", async () => {
      const block = BigInt((await status(a)).indexedBlock);
      return (await accountBalance(a, '1320')) === (await devnet.publicClient.getBalance({ address: sa.relayerAddress, blockNumber: block }));
    });
    const gas = server.ctx.sqlite.prepare("select payload from ledger_events where entity_id = ? and type = 'relayer_gas_paid'").all(a.entityId) as { payload: string }[];
    expect(gas.length).toBeGreaterThan(0);
    expect(parseEther(JSON.parse(gas[0].payload).amount)).toBeGreaterThan(0n);
    expect(server.ctx.sqlite.prepare("select count(*) as n from ledger_events where entity_id = ? and type = 'relayer_gas_paid'").get(b.entityId)).toEqual({ n: 0 });
    expect(await accountBalance(b, '1320')).toBe(parseEther(RELAYER_FUNDING));
  }, 120_000);
});

describe('a prepared proof', () => {
  it('is relayed at Confirm for exactly its transfer; a changed amount, an expired one or another entity’s id is proved again', async () => {
    const to = await addressOf(b);
    let expectB = await balanceOf(b);
    const bGets = async (eth: string) => {
      expectB += parseEther(eth);
      await until(`B holding ${expectB}`, async () => (await balanceOf(b)) === expectB);
    };
    const prepared = await a.post('/api/privacy/transfers/prepare', { entityId: a.entityId, ...transfer(to, '0.01') });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    // The proof itself never leaves the server.
    expect(Object.keys(prepared.body).sort()).toEqual(['expiresAt', 'fee', 'preparedId', 'relayer', 'success', 'via']);
    // Another entity naming A's prepared proof proves its own transfer; A's proof stays A's.
    const other = await b.post('/api/privacy/transfers/confirm', { entityId: b.entityId, ...transfer(await addressOf(a), '0.01'), preparedId: prepared.body.preparedId });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body).toMatchObject({ usedPrepared: false, reproveReason: 'unknown' });
    await bGets('-0.01');
    const used = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(to, '0.01'), preparedId: prepared.body.preparedId });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body).toMatchObject({ usedPrepared: true, reproveReason: null });
    await bGets('0.01');

    // Used once: the same id again proves afresh.
    const again = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(to, '0.01'), preparedId: prepared.body.preparedId });
    expect(again.body).toMatchObject({ usedPrepared: false, reproveReason: 'unknown' });
    await bGets('0.01');

    // The person went back and changed the amount: the proof for the old amount is not sent.
    const changed = await a.post('/api/privacy/transfers/prepare', { entityId: a.entityId, ...transfer(to, '0.01') });
    const sentChanged = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(to, '0.02'), preparedId: changed.body.preparedId });
    expect(sentChanged.body).toMatchObject({ usedPrepared: false, reproveReason: 'changed' });
    await bGets('0.02');

    // The quote ran out while the person read the screen.
    const late = await a.post('/api/privacy/transfers/prepare', { entityId: a.entityId, ...transfer(to, '0.01') });
    const realNow = server.ctx.clock.now.bind(server.ctx.clock);
    server.ctx.clock.now = () => new Date(realNow().getTime() + 11 * 60_000);
    try {
      const expired = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(to, '0.01'), preparedId: late.body.preparedId });
      expect(expired.status, JSON.stringify(expired.body)).toBe(200);
      expect(expired.body).toMatchObject({ usedPrepared: false, reproveReason: 'expired' });
    } finally {
      server.ctx.clock.now = realNow;
    }
    await bGets('0.01');
  }, 180_000);

  it('a resync while a Confirm is under way is refused', async () => {
    const expectB = (await balanceOf(b)) + parseEther('0.01');
    const confirming = a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(await addressOf(b), '0.01') });
    await new Promise((r) => setTimeout(r, 300));
    const resync = await a.post('/api/privacy/resync', { entityId: a.entityId, chain: 'local' });
    expect(resync.status, JSON.stringify(resync.body)).toBe(409);
    expect(resync.body.error).toBe('A transfer is in flight on local: resync once it is confirmed or has failed');
    expect((await confirming).status).toBe(200);
    await until('B paid', async () => (await balanceOf(b)) === expectB);
  }, 120_000);
});

describe('the bundler down', () => {
  it('says so, keeps the proved send with why, and Try again relays the same proof once it answers', async () => {
    bundlerDown = true;
    const expectB = (await balanceOf(b)) + parseEther('0.02');
    try {
      const health = await a.get('/api/privacy/health?chain=local');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ rpc: { ok: true }, bundler: { ok: false } });
      expect(health.body.affected.join(' ')).toMatch(/nothing can be shielded, sent or unshielded/);
      const sent = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(await addressOf(b), '0.02') });
      expect(sent.status, JSON.stringify(sent.body)).toBe(502);
      expect(sent.body.error).toBe('Bundler submission failed');
    } finally {
      bundlerDown = false;
    }
    // (Rows made while the clock was moved on sort first: find the one left proved.)
    const row = (await history(a)).find((h) => h.status === 'proved')!;
    expect(row).toMatchObject({ kind: 'sent', status: 'proved', canRetry: true });
    expect(row.relayError).toMatch(/^Bundler submission failed/);
    const retried = await a.post(`/api/privacy/transfers/${row.id}/retry`, { entityId: a.entityId });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ activityId: row.id, sameProof: true });
    await until('the retried send confirmed', async () => (await history(a)).find((h) => h.id === row.id)?.status === 'confirmed');
    await until('B paid', async () => (await balanceOf(b)) === expectB);
    expect(bookingsOf(a.entityId, row.id)).toEqual([{ type: 'private_payment_sent', status: 'posted' }]);
    // Confirmed: nothing to try again, and B cannot try A's transfer.
    expect((await a.post(`/api/privacy/transfers/${row.id}/retry`, { entityId: a.entityId })).status).toBe(409);
    expect((await b.post(`/api/privacy/transfers/${row.id}/retry`, { entityId: b.entityId })).status).toBe(404);
  }, 120_000);

  it('proves again when the kept proof can no longer land (its deadline passed)', async () => {
    const expectB = (await balanceOf(b)) + parseEther('0.01');
    bundlerDown = true;
    try {
      expect((await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(await addressOf(b), '0.01') })).status).toBe(502);
    } finally {
      bundlerDown = false;
    }
    const row = (await history(a)).find((h) => h.status === 'proved')!;
    expect(row).toMatchObject({ kind: 'sent', canRetry: true });
    const realNow = server.ctx.clock.now.bind(server.ctx.clock);
    server.ctx.clock.now = () => new Date(realNow().getTime() + 2 * 3600_000);
    try {
      const retried = await a.post(`/api/privacy/transfers/${row.id}/retry`, { entityId: a.entityId });
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ activityId: row.id, sameProof: false });
    } finally {
      server.ctx.clock.now = realNow;
    }
    await until('the re-proved send confirmed', async () => (await history(a)).find((h) => h.id === row.id)?.status === 'confirmed');
    await until('B paid', async () => (await balanceOf(b)) === expectB);
    expect((await history(a)).filter((h) => h.id === row.id)).toHaveLength(1);
    expect(bookingsOf(a.entityId, row.id)).toEqual([{ type: 'private_payment_sent', status: 'posted' }]);
    expect(await accountBalance(a, '1310')).toBe(await balanceOf(a));
  }, 120_000);
});

describe('a transfer a reorganisation undid, mined again', () => {
  it('is booked again, once, at the block that holds it now', async () => {
    const bBefore = await balanceOf(b);
    const snapshot = await devnet.publicClient.request({ method: 'evm_snapshot' as never, params: [] as never });
    const sent = await a.post('/api/privacy/transfers/confirm', { entityId: a.entityId, ...transfer(await addressOf(b), '0.03') });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.activityId as string;
    const mined = await until('the send confirmed', async () => (await history(a)).find((h) => h.id === id && h.status === 'confirmed'));
    await until("B's note", async () => (await balanceOf(b)) === bBefore + parseEther('0.03'));
    const raw = await devnet.publicClient.request({ method: 'eth_getRawTransactionByHash' as never, params: [mined.txHash] as never });
    expect(raw).toMatch(/^0x/);

    // The block goes; the surviving chain is longer.
    await devnet.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    await devnet.publicClient.request({ method: 'anvil_mine' as never, params: ['0x3'] as never });
    await until('the send undone', async () => (await history(a)).find((h) => h.id === id)?.error === 'Undone by a chain reorganisation');
    expect(bookingsOf(a.entityId, id).map((e) => e.status)).toEqual(['reversed']);
    await until("B's note gone", async () => (await balanceOf(b)) === bBefore);

    // A later block includes the same transaction again.
    await devnet.publicClient.request({ method: 'eth_sendRawTransaction' as never, params: [raw] as never });
    await until('the send confirmed again', async () => (await history(a)).find((h) => h.id === id)?.status === 'confirmed');
    await until("B's note back", async () => (await balanceOf(b)) === bBefore + parseEther('0.03'));
    const bookings = bookingsOf(a.entityId, id);
    expect(bookings.filter((e) => e.status === 'posted')).toEqual([{ type: 'private_payment_sent', status: 'posted' }]);
    expect(bookings).toHaveLength(2);
    expect(await accountBalance(a, '1310')).toBe(await balanceOf(a));
    // The receiver's books too: its receipt once, at the new block.
    const received = (await history(b)).filter((h) => h.kind === 'received');
    expect(received.every((h) => h.status === 'confirmed')).toBe(true);
    expect(await accountBalance(b, '1310')).toBe(bBefore + parseEther('0.03'));
  }, 180_000);
});
