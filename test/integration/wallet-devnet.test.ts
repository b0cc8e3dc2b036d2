// Shielded transfers end to end on the real devnet (anvil + EntryPoint v0.8 + Alto + our pool)
// with real on-device proofs: two entities, shield ETH and the test token, a private transfer
// relayed anonymously, an unshield to a fresh address, and every failure of the contract
// produced for real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { startDevnet, deployPool, type Devnet } from '../helpers/devnet.js';
import { makeClient, startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';
import { chainRegistry } from '../../server/wallet/chains.js';
import { balanceOnChains, reconcilePublicAccounts, type Reading } from '../../server/wallet/public-reconcile.js';
import { indexedBlockOf, peekChainState } from '../../server/wallet/chain-sync.js';
import { PoolIndexer } from '../../server/privacy/index.js';
import { shieldedPoolAbi, testTokenAbi } from '../../server/privacy/contract-abis.js';

let devnet: Devnet;
let server: TestServer;
let second: TestServer;
let harnessPool: Address;
let token: Address;
let a: SessionClient;
let b: SessionClient;
let accountA: Address;
const servers: TestServer[] = [];
/** The main server's clock; only the last test moves it. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

async function until<T>(what: string, server: TestServer, check: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    await server.ctx.loops.runAll();
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function balanceOf(client: SessionClient, chain: string, tokenAddress: string): Promise<bigint> {
  const res = await client.get(`/api/privacy/balance?chain=${chain}&token=${tokenAddress}`);
  expect(res.status).toBe(200);
  return BigInt(res.body.balances[0].amount);
}

const ETH = '0x0000000000000000000000000000000000000000';

/** The entity's Shielded funds account (1310) in a ledger currency, in minor (base) units. */
async function shieldedInBooks(client: SessionClient, currency: string): Promise<bigint> {
  const tb = await client.get('/api/ledger/trial-balance');
  const row = tb.body.rows.find((r: { code: string; currency: string }) => r.code === '1310' && r.currency === currency);
  return row ? BigInt(row.balance.replace('.', '')) : 0n;
}

/** One of the entity's accounts in ETH, in wei. */
async function accountInBooks(client: SessionClient, code: string): Promise<bigint> {
  const tb = await client.get('/api/ledger/trial-balance');
  const row = tb.body.rows.find((r: { code: string; currency: string }) => r.code === code && r.currency === 'ETH/18');
  return row ? BigInt(row.balance.replace('.', '')) : 0n;
}

/** The entity's Crypto wallet (public) account (1300) in ETH, in wei. */
const publicInBooks = (client: SessionClient) => accountInBooks(client, '1300');

/** The books' public account equals the business account's balance on chain (after the indexer's next pass). */
async function publicAccountReconciled(client: SessionClient): Promise<bigint> {
  const address = (await client.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').accountAddress as Address;
  return until('the public account in the books', server, async () => {
    const chainBalance = await devnet.publicClient.getBalance({ address });
    return (await publicInBooks(client)) === chainBalance ? chainBalance : null;
  });
}

function ledgerPayloads(entityId: string, type: string): Record<string, unknown>[] {
  return (server.ctx.sqlite.prepare('select payload from ledger_events where entity_id = ? and type = ? order by created_at').all(entityId, type) as { payload: string }[]).map((l) => JSON.parse(l.payload));
}

async function history(client: SessionClient) {
  const res = await client.get('/api/privacy/history');
  expect(res.status).toBe(200);
  return res.body.items as { kind: string; status: string; amount: string; chain: string; txHash: string | null; userOpHash: string | null; token: string }[];
}

async function fund(address: Address, eth: string, tokens = 0n) {
  const hash = await devnet.deployer.sendTransaction({ to: address, value: parseEther(eth) });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
  if (tokens > 0n) {
    const mint = await devnet.deployer.writeContract({ address: token, abi: testTokenAbi, functionName: 'mint', args: [address, tokens] });
    await devnet.publicClient.waitForTransactionReceipt({ hash: mint });
  }
}

async function start(options: Parameters<typeof startTestServer>[0]) {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

beforeAll(async () => {
  devnet = await startDevnet();
  token = devnet.config.token as Address;
  // A second pool that lets the test age a root past the 100-root window without 101 proofs.
  const harness = await deployPool(devnet.deployer, devnet.publicClient, { harness: true });
  harnessPool = harness.pool;
  const chains = {
    local: devnet.config as unknown as Record<string, unknown>,
    harness: { ...devnet.config, pool: harness.pool, poolDeployBlock: Number(harness.deployBlock) } as unknown as Record<string, unknown>,
  };
  server = await start({ chains, clock });
  // Another install on the same chain (own relay, own database), with a prover that cannot finish.
  second = await start({ chains, proverTimeoutMs: 1 });
  a = await server.signup({ entityName: 'Alpha' });
  b = await server.signup({ entityName: 'Beta' });
  const initA = await a.post('/api/privacy/initialize', { entityId: a.entityId });
  await b.post('/api/privacy/initialize', { entityId: b.entityId });
  accountA = initA.body.accounts.find((x: { chain: string }) => x.chain === 'local').address;
  const status = await a.get('/api/privacy/status');
  const relayer = status.body.chains.find((c: { chain: string }) => c.chain === 'local').relayerAddress as Address;
  await fund(accountA, '5', parseEther('1000'));
  await fund(relayer, '5');
  // Each business relays through its own relayer: B's unshields need theirs funded too.
  const relayerB = (await b.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').relayerAddress as Address;
  await fund(relayerB, '5');
}, 120_000);

afterAll(async () => {
  for (const s of servers) {
    await closeProver(s.ctx);
    await s.close();
  }
  await devnet?.stop();
});

describe('shielded transfers on the devnet', () => {
  it('A shields native ETH and the test token from its smart account', async () => {
    const eth = await a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('1').toString(), chain: 'local' });
    expect(eth.status, JSON.stringify(eth.body)).toBe(200);
    expect(eth.body).toMatchObject({ success: true, chain: 'local', token: '0x0000000000000000000000000000000000000000', amount: '1000000000000000000' });
    expect(eth.body.userOpHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(eth.body.noteCommitment).toMatch(/^0x[0-9a-f]{64}$/);
    // Once the account exists, two operations of it may be in flight at once (2D nonces).
    const [btt, btt2] = await Promise.all([
      a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('300').toString(), token, chain: 'local' }),
      a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('200').toString(), token, chain: 'local' }),
    ]);
    expect(btt.status, JSON.stringify(btt.body)).toBe(200);
    expect(btt2.status, JSON.stringify(btt2.body)).toBe(200);

    await until('all shields confirmed', server, async () => (await history(a)).filter((h) => h.kind === 'shielded' && h.status === 'confirmed').length === 3);
    expect(await balanceOf(a, 'local', '0x0000000000000000000000000000000000000000')).toBe(parseEther('1'));
    expect(await balanceOf(a, 'local', token)).toBe(parseEther('500'));
    // The pool holds the tokens; the account paid them.
    const poolTokens = await devnet.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [devnet.config.pool as Address] });
    expect(poolTokens).toBe(parseEther('500'));
    const notes = await a.get('/api/privacy/notes?chain=local');
    expect(notes.body.notes.map((n: { commitment: string }) => n.commitment)).toEqual(expect.arrayContaining([eth.body.noteCommitment, btt.body.noteCommitment, btt2.body.noteCommitment]));

    const events = server.ctx.sqlite.prepare("select type from outbox where entity_id = ? and type like 'transfer.%'").all(a.entityId) as { type: string }[];
    expect(events.map((e) => e.type)).toEqual(['transfer.shielded', 'transfer.shielded', 'transfer.shielded']);
    const ledger = server.ctx.sqlite.prepare("select payload from ledger_events where entity_id = ? and type = 'transfer_shielded'").all(a.entityId) as { payload: string }[];
    expect(ledger.map((l) => JSON.parse(l.payload))).toEqual(
      expect.arrayContaining([expect.objectContaining({ direction: 'shield', currency: 'ETH/18', amount: '1' }), expect.objectContaining({ direction: 'shield', currency: 'BTT/18', amount: '300' }), expect.objectContaining({ direction: 'shield', currency: 'BTT/18', amount: '200' })]),
    );
  }, 120_000);

  it('A proves a transfer to B; the relay submits it without authentication, once', async () => {
    const bAddress = (await b.get('/api/privacy/status')).body.shieldedAddress;
    const bundle = await a.post('/api/privacy/prove-transfer', { entityId: a.entityId, recipientAddress: bAddress, amount: parseEther('0.3').toString(), chain: 'local', purpose: { kind: 'bill', billNumber: 'B-300' } });
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
    expect(bundle.body).toMatchObject({ success: true, chain: 'local', extAmount: '0', fee: '0' });
    expect(bundle.body.proofId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bundle.body.proof).toMatch(/^0x[0-9a-f]{512}$/);
    expect(bundle.body.nullifierHashes).toHaveLength(2);
    expect(bundle.body.newCommitments).toHaveLength(2);
    expect(bundle.body.encryptedNotesRecipient).toHaveLength(2);
    expect(bundle.body.encryptedNotesSender).toHaveLength(2);

    const { success: _s, proofId: _p, ...payload } = bundle.body;
    // Two identical submissions at once: one UserOperation.
    const [first, concurrent] = await Promise.all([server.anon.post('/api/relay/transfer', payload), server.anon.post('/api/relay/transfer', payload)]);
    const relayed = first.body.replayed ? concurrent : first;
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
    expect(relayed.body).toMatchObject({ success: true, replayed: false });
    expect([first.body.userOpHash, concurrent.body.userOpHash]).toEqual([relayed.body.userOpHash, relayed.body.userOpHash]);
    const again = await server.anon.post('/api/relay/transfer', payload);
    expect(again.body).toEqual({ success: true, userOpHash: relayed.body.userOpHash, replayed: true });
    // Keyed on the nullifiers, not the proof bytes: a re-encoded proof of the same spend is the same bundle.
    const reencoded = { ...payload, proof: payload.proof.slice(0, -2) + (payload.proof.endsWith('00') ? '01' : '00') };
    const sameSpend = await server.anon.post('/api/relay/transfer', reencoded);
    expect(sameSpend.body).toEqual({ success: true, userOpHash: relayed.body.userOpHash, replayed: true });
    expect(server.ctx.sqlite.prepare('select count(*) as n from wallet_relays').get()).toEqual({ n: 1 });

    await until("B's received note", server, async () => (await balanceOf(b, 'local', '0x0000000000000000000000000000000000000000')) === parseEther('0.3'));
    expect(await balanceOf(a, 'local', '0x0000000000000000000000000000000000000000')).toBe(parseEther('0.7'));
    const received = (await history(b)).find((h) => h.kind === 'received');
    expect(received).toMatchObject({ status: 'confirmed', amount: parseEther('0.3').toString(), chain: 'local' });
    await until("A's sent activity confirmed", server, async () => (await history(a)).some((h) => h.kind === 'sent' && h.status === 'confirmed' && h.userOpHash === relayed.body.userOpHash));
    const typesOf = (entityId: string) => (server.ctx.sqlite.prepare("select type from outbox where entity_id = ? and type like 'transfer.%' order by id").all(entityId) as { type: string }[]).map((e) => e.type);
    expect(typesOf(a.entityId)).toEqual(['transfer.shielded', 'transfer.shielded', 'transfer.shielded', 'transfer.sent']);
    expect(typesOf(b.entityId)).toEqual(['transfer.received']);
    const notifications = await b.get('/api/notifications');
    expect(notifications.body.map((n: { title: string }) => n.title)).toContain('Received 0.3 ETH privately');
    // Both sides are in the books: a payment out of A's shielded funds, a payment into B's.
    const [sent] = ledgerPayloads(a.entityId, 'private_payment_sent');
    // Booked for what A said it paid (a bill settles payables); B's receipt waits in Uncategorised receipts.
    expect(sent).toMatchObject({ method: 'private_send', currency: 'ETH/18', amount: '0.3', chain: 'local', billNumber: 'B-300', reference: expect.stringMatching(/^wallet-activity:/) });
    // The books (which sync) never name the recipient's shielded address or the pool transaction.
    expect(JSON.stringify(sent)).not.toContain(bAddress.slice(4, 40));
    expect(JSON.stringify(sent)).not.toContain(relayed.body.userOpHash.slice(2));
    expect(ledgerPayloads(b.entityId, 'private_payment_received')).toEqual([expect.objectContaining({ currency: 'ETH/18', amount: '0.3', chain: 'local' })]);
    expect(ledgerPayloads(b.entityId, 'private_payment_received')[0]).not.toHaveProperty('counterAccount');
    const bBalances = (await b.get('/api/ledger/trial-balance')).body.rows as { code: string; currency: string; balance: string }[];
    expect(bBalances.find((r) => r.code === '2900' && r.currency === 'ETH/18')?.balance).toMatch(/^-?0\.3/);
    expect(bBalances.find((r) => r.code === '1100' && r.currency === 'ETH/18')).toBeUndefined();
    expect(await shieldedInBooks(a, 'ETH/18')).toBe(await balanceOf(a, 'local', ETH));
    expect(await shieldedInBooks(b, 'ETH/18')).toBe(await balanceOf(b, 'local', ETH));

    // The same bundle through another relay: the pool has spent its nullifiers.
    const elsewhere = await second.anon.post('/api/relay/transfer', payload);
    expect(elsewhere).toMatchObject({ status: 409, body: { error: 'Spent nullifier' } });
  }, 120_000);

  it('B unshields to a fresh address whose balance rises by the amount', async () => {
    const fresh = privateKeyToAddress(generatePrivateKey());
    expect(await devnet.publicClient.getBalance({ address: fresh })).toBe(0n);
    const res = await b.post('/api/privacy/unshield', { entityId: b.entityId, amount: parseEther('0.1').toString(), recipient: fresh, chain: 'local' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, chain: 'local', amount: parseEther('0.1').toString(), recipient: fresh });
    await until('the withdrawal', server, async () => (await devnet.publicClient.getBalance({ address: fresh })) === parseEther('0.1'));
    await until("B's balance", server, async () => (await balanceOf(b, 'local', '0x0000000000000000000000000000000000000000')) === parseEther('0.2'));
    await until('unshield confirmed', server, async () => (await history(b)).some((h) => h.kind === 'unshielded' && h.status === 'confirmed'));

    // Without a recipient the funds go to the entity's own smart account.
    const own = (await b.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').accountAddress as Address;
    const before = await devnet.publicClient.getBalance({ address: own });
    const toSelf = await b.post('/api/privacy/unshield', { entityId: b.entityId, amount: parseEther('0.05').toString(), chain: 'local' });
    expect(toSelf.status, JSON.stringify(toSelf.body)).toBe(200);
    expect(toSelf.body.recipient).toBe(own);
    await until('the withdrawal to the account', server, async () => (await devnet.publicClient.getBalance({ address: own })) === before + parseEther('0.05'));
    await until("B's balance after both", server, async () => (await balanceOf(b, 'local', '0x0000000000000000000000000000000000000000')) === parseEther('0.15'));
    await until('both unshields confirmed', server, async () => (await history(b)).filter((h) => h.kind === 'unshielded' && h.status === 'confirmed').length === 2);
    // To our own account the funds stay ours (a transfer); to someone else's address they are a payment out.
    expect(ledgerPayloads(b.entityId, 'transfer_shielded')).toEqual([expect.objectContaining({ direction: 'unshield', currency: 'ETH/18', amount: '0.05' })]);
    expect(ledgerPayloads(b.entityId, 'private_payment_sent')).toEqual([expect.objectContaining({ method: 'unshield', currency: 'ETH/18', amount: '0.1', counterparty: fresh })]);
    // The books agree with the wallet: each entity's Shielded funds account is its spendable balance.
    for (const [client, currency, tokenAddress] of [[b, 'ETH/18', ETH], [a, 'ETH/18', ETH], [a, 'BTT/18', token]] as const) {
      expect(await shieldedInBooks(client, currency)).toBe(await balanceOf(client, 'local', tokenAddress));
    }
    expect(await shieldedInBooks(b, 'ETH/18')).toBe(parseEther('0.15'));
    // And the public account likewise: B's holds what it unshielded to itself; A's what it was
    // funded with, less what it shielded, less the network fees its operations paid.
    expect(await publicAccountReconciled(b)).toBe(parseEther('0.05'));
    const aPublic = await publicAccountReconciled(a);
    expect(aPublic).toBeLessThan(parseEther('4'));
    const fees = ledgerPayloads(a.entityId, 'expense_recorded').filter((p) => p.expenseAccount === '6700');
    expect(fees.length).toBeGreaterThan(0);
    // Each funding booked once, where it went: the business account (1300) and A's own relayer
    // (1320, funded in the setup), however many chains of that currency (local, harness) reconcile it.
    expect(ledgerPayloads(a.entityId, 'owner_contribution')).toEqual([
      expect.objectContaining({ amount: '5.000000000000000000', depositAccount: '1300' }),
      expect.objectContaining({ amount: '5.000000000000000000', depositAccount: '1320' }),
    ]);
    // The relayer account in the books is the relayer's balance: 5 ETH less the gas of A's transfer.
    const relayerA = (await a.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').relayerAddress as Address;
    const relayerInBooks = await until("A's relayer account in the books", server, async () => {
      const chainBalance = await devnet.publicClient.getBalance({ address: relayerA });
      return (await accountInBooks(a, '1320')) === chainBalance ? chainBalance : null;
    });
    expect(relayerInBooks).toBeLessThan(parseEther('5'));
    expect(ledgerPayloads(a.entityId, 'relayer_gas_paid')).toEqual([expect.objectContaining({ chain: 'local' })]);
    // Two pools on one chain: a reconcile of the pool whose indexer is behind reads the relayer at
    // the newer block the other reached (read at its own, it undid the booked gas as a "deposit").
    const chains = chainRegistry(server.ctx).chains;
    const head = await devnet.publicClient.getBlockNumber();
    const readings: Reading[] = [{ chain: chains.get('harness')!, block: 1n }, { chain: chains.get('local')!, block: head }];
    expect(await balanceOnChains(readings, () => relayerA, 'newest')).toBe(await devnet.publicClient.getBalance({ address: relayerA, blockNumber: head }));
  }, 120_000);

  it("a reconcile while another pool's index is rebuilt reads the shared relayer where that pool's last sync stood", async () => {
    const relayerEvents = () => ledgerPayloads(a.entityId, 'owner_contribution').length + ledgerPayloads(a.entityId, 'relayer_gas_paid').length;
    const before = relayerEvents();
    const chains = chainRegistry(server.ctx).chains;
    const local = peekChainState(server.ctx, 'local')!;
    const indexer = local.indexer;
    // What a failed sync attempt leaves while it retries: an indexer re-indexing from the deploy
    // block, here as far as block 1.
    const early = await devnet.publicClient.getBlock({ blockNumber: 1n });
    const localChain = chains.get('local')!;
    local.indexer = PoolIndexer.restore({ client: devnet.publicClient, chainId: BigInt(localChain.chainId), pool: localChain.pool }, { nextBlock: '2', commitments: [], spentNullifiers: [], blocks: [{ number: '1', hash: early.hash }] });
    try {
      // The other pool's reconcile, from a sync that reached that early block too.
      await reconcilePublicAccounts(server.ctx, chains.get('harness')!, { number: early.number, hash: early.hash }, { peerBlock: (name) => indexedBlockOf(server.ctx, name) });
    } finally {
      local.indexer = indexer;
    }
    // Read at block 1 the relayer held nothing: the books would have lost its 5 ETH as gas.
    expect(relayerEvents()).toBe(before);
  });

  it('refuses a transfer beyond the shielded balance', async () => {
    const aAddress = (await a.get('/api/privacy/status')).body.shieldedAddress;
    const res = await b.post('/api/privacy/prove-transfer', { entityId: b.entityId, recipientAddress: aAddress, amount: parseEther('5').toString(), chain: 'local' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Insufficient shielded balance', details: { available: parseEther('0.15').toString(), requested: parseEther('5').toString() } } });
    const tokens = await b.post('/api/privacy/unshield', { entityId: b.entityId, amount: '1', token, chain: 'local' });
    expect(tokens).toMatchObject({ status: 400, body: { error: 'Insufficient shielded balance' } });
  });

  it('the relay refuses a root older than the last 100 insertions', async () => {
    const shield = await a.post('/api/privacy/shield', { entityId: a.entityId, amount: parseEther('0.05').toString(), chain: 'harness' });
    expect(shield.status, JSON.stringify(shield.body)).toBe(200);
    await until('harness shield', server, async () => (await balanceOf(a, 'harness', '0x0000000000000000000000000000000000000000')) === parseEther('0.05'));
    const bAddress = (await b.get('/api/privacy/status')).body.shieldedAddress;
    const bundle = await a.post('/api/privacy/prove-transfer', { entityId: a.entityId, recipientAddress: bAddress, amount: parseEther('0.01').toString(), chain: 'harness' });
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
    for (let i = 0; i < 101; i++) {
      const hash = await devnet.deployer.writeContract({ address: harnessPool, abi: harnessAbi, functionName: 'insertPairForTest', args: [BigInt(2 * i + 1), BigInt(2 * i + 2)] });
      if (i === 100) await devnet.publicClient.waitForTransactionReceipt({ hash });
    }
    const known = await devnet.publicClient.readContract({ address: harnessPool, abi: shieldedPoolAbi, functionName: 'isKnownRoot', args: [BigInt(bundle.body.root)] });
    expect(known).toBe(false);
    const { success: _s, proofId: _p, ...payload } = bundle.body;
    const relayed = await server.anon.post('/api/relay/transfer', payload);
    expect(relayed).toMatchObject({ status: 409, body: { error: 'Invalid Merkle root' } });
    const row = (await history(a)).find((h) => h.kind === 'sent' && h.chain === 'harness');
    expect(row).toMatchObject({ status: 'failed', error: 'Invalid Merkle root' });
  }, 180_000);

  it('a prover that exceeds its timeout answers Prover timeout', async () => {
    const c = await second.signup();
    const init = await c.post('/api/privacy/initialize', { entityId: c.entityId });
    await fund(init.body.accounts.find((x: { chain: string }) => x.chain === 'local').address, '1');
    const res = await c.post('/api/privacy/shield', { entityId: c.entityId, amount: '1000', chain: 'local' });
    expect(res).toMatchObject({ status: 504, body: { error: 'Prover timeout' } });
  }, 60_000);

  it('refuses to shield more than the business account holds, before proving, with the balance and fee', async () => {
    const c = await server.signup();
    const init = await c.post('/api/privacy/initialize', { entityId: c.entityId });
    await fund(init.body.accounts.find((x: { chain: string }) => x.chain === 'local').address, '0.5');
    const res = await c.post('/api/privacy/shield', { entityId: c.entityId, amount: parseEther('0.5').toString(), chain: 'local' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ error: 'Insufficient public balance', details: { available: parseEther('0.5').toString(), requested: parseEther('0.5').toString() } });
    expect(BigInt(res.body.details.fee)).toBeGreaterThan(0n);
    // Refused before anything was proved or recorded: no failed row in the history.
    expect((await history(c)).filter((h) => h.kind === 'shielded')).toEqual([]);
    const tokens = await c.post('/api/privacy/shield', { entityId: c.entityId, amount: '1', token, chain: 'local' });
    expect(tokens).toMatchObject({ status: 400, body: { error: 'Insufficient public balance', details: { available: '0', requested: '1' } } });
  }, 60_000);

  it('a bundler that does not answer: Bundler submission failed', async () => {
    const down = await start({ chains: { local: { ...devnet.config, bundlerUrl: 'http://127.0.0.1:9/' } as unknown as Record<string, unknown> } });
    const c = await down.signup();
    await c.post('/api/privacy/initialize', { entityId: c.entityId });
    const res = await c.post('/api/privacy/shield', { entityId: c.entityId, amount: '1000', chain: 'local' });
    expect(res).toMatchObject({ status: 502, body: { error: 'Bundler submission failed' } });
  });
});

describe('a newcomer funds the public accounts', () => {
  it('sees both accounts with their balances, funds them from the devnet, and a refused shield becomes one that works', async () => {
    const c = await server.signup();
    await c.post('/api/privacy/initialize', { entityId: c.entityId });
    const before = await c.get('/api/privacy/accounts?chain=local');
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toMatchObject({ chain: 'local', chainId: 31337, nativeSymbol: 'ETH', devnet: true, account: { balance: '0' } });
    expect(before.body.account.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(before.body.relayer.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // Without funds the shield is refused before proving; funded from the devnet, the same shield goes through.
    expect((await c.post('/api/privacy/shield', { entityId: c.entityId, amount: '1000', chain: 'local' })).body).toMatchObject({ error: 'Insufficient public balance', details: { available: '0' } });
    const funded = await c.post('/api/privacy/devnet-fund', { chain: 'local', target: 'account' });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body).toMatchObject({ funded: true, target: 'account', address: before.body.account.address, amount: parseEther('1').toString(), balance: parseEther('1').toString() });
    expect((await c.get('/api/privacy/accounts?chain=local')).body.account.balance).toBe(parseEther('1').toString());
    const shield = await c.post('/api/privacy/shield', { entityId: c.entityId, amount: '1000', chain: 'local' });
    expect(shield.status, JSON.stringify(shield.body)).toBe(200);
    expect((await c.post('/api/privacy/devnet-fund', { chain: 'local', target: 'nobody' })).status).toBe(400);
    expect((await server.anon.post('/api/privacy/devnet-fund', { chain: 'local', target: 'account' })).status).toBe(401);
  }, 120_000);
});

describe('a new account', () => {
  it('two first operations at once: one deploys the account, the other waits for it, both land', async () => {
    const c = await server.signup({ entityName: 'Gamma' });
    const init = await c.post('/api/privacy/initialize', { entityId: c.entityId });
    const accountC = init.body.accounts.find((x: { chain: string }) => x.chain === 'local').address as Address;
    await fund(accountC, '1');
    expect(await devnet.publicClient.getCode({ address: accountC })).toBeUndefined();
    const [first, second] = await Promise.all([
      c.post('/api/privacy/shield', { entityId: c.entityId, amount: '7000', chain: 'local' }),
      c.post('/api/privacy/shield', { entityId: c.entityId, amount: '5000', chain: 'local' }),
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    await until('both shields confirmed', server, async () => (await history(c)).filter((h) => h.kind === 'shielded' && h.status === 'confirmed').length === 2);
    expect(await balanceOf(c, 'local', '0x0000000000000000000000000000000000000000')).toBe(12000n);
    expect(await devnet.publicClient.getCode({ address: accountC })).toMatch(/^0x[0-9a-f]+$/);
  }, 120_000);
});

describe('relay of a forged bundle', () => {
  it('is refused by the bundler simulation with the pool error as reason, spending no gas', async () => {
    const root = await devnet.publicClient.readContract({ address: devnet.config.pool as Address, abi: shieldedPoolAbi, functionName: 'getLastRoot' });
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const status = (await a.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
    const forged = {
      chain: 'local',
      proof: `0x${'00'.repeat(255)}01`,
      root: `0x${root.toString(16).padStart(64, '0')}`,
      nullifierHashes: [word(1001), word(1002)],
      newCommitments: [word(2001), word(2002)],
      encryptedNotesRecipient: ['0x01', '0x02'],
      encryptedNotesSender: ['0x03', '0x04'],
      token: '0x0000000000000000000000000000000000000000',
      recipient: '0x0000000000000000000000000000000000000000',
      extAmount: '0',
      relayer: status.relayerAddress,
      fee: '0',
      deadline: String(Math.floor(Date.now() / 1000) + 600),
    };
    const relayerBalance = await devnet.publicClient.getBalance({ address: status.relayerAddress });
    const res = await server.anon.post('/api/relay/transfer', forged);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expect(res.body).toMatchObject({ error: 'Bundler rejection', details: { reason: expect.stringMatching(/ShieldedPool\.InvalidProof/) } });
    expect(await devnet.publicClient.getBalance({ address: status.relayerAddress })).toBe(relayerBalance);
    const deposit = await server.anon.post('/api/relay/transfer', { ...forged, extAmount: '5' });
    expect(deposit.status).toBe(400);
  }, 60_000);
});

describe('restart', () => {
  it('resumes the chain index from its stored snapshot instead of rescanning', async () => {
    await server.ctx.loops.runAll();
    const before = (await a.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
    expect(before.leaves).toBeGreaterThan(0);
    // Same database, and a deploy block past every pool event: only a resumed index can match the pool's root.
    const head = await devnet.publicClient.getBlockNumber();
    const restarted = await start({ dataDir: server.dataDir, chains: { local: { ...devnet.config, poolDeployBlock: Number(head) } as unknown as Record<string, unknown> } });
    const again = makeClient(restarted.url, { cookie: a.cookie, origin: restarted.url, 'x-entity-id': a.entityId });
    expect((await again.get('/api/privacy/balance?chain=local')).status).toBe(200);
    const after = (await again.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
    expect(after).toMatchObject({ leaves: before.leaves, problem: null });
  }, 60_000);
});

describe('bundles that are never relayed', () => {
  it('expire to failed once their deadline has passed', async () => {
    const bAddress = (await b.get('/api/privacy/status')).body.shieldedAddress;
    const bundle = await a.post('/api/privacy/prove-transfer', { entityId: a.entityId, recipientAddress: bAddress, amount: '1000', chain: 'local' });
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
    const proved = async () => (await history(a)).find((h) => h.kind === 'sent' && h.status !== 'confirmed' && h.chain === 'local');
    await server.ctx.loops.runAll();
    expect(await proved()).toMatchObject({ status: 'proved' });
    clock.offsetMs = 2 * 3600_000;
    await server.ctx.loops.runAll();
    expect(await proved()).toMatchObject({ status: 'failed', error: 'Expired before it was relayed' });
  }, 60_000);
});

const harnessAbi = [
  { type: 'function', name: 'insertPairForTest', stateMutability: 'nonpayable', inputs: [{ name: 'left', type: 'uint256' }, { name: 'right', type: 'uint256' }], outputs: [] },
] as const;

