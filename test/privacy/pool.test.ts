// The pool on a real devnet with real proofs: value moves for ETH and an ERC-20, and every
// attack the design names is rejected by the contract with its specific error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, decodeErrorResult, encodeFunctionData, http, parseEther, type Address, type PublicClient } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import {
  FIELD_SIZE,
  JoinSplitProver,
  MerkleTree,
  PoolIndexer,
  ROOT_HISTORY_SIZE,
  ZERO_ADDRESS,
  createNote,
  encodeAddress,
  decodeAddress,
  planShield,
  planTransaction,
  planTransfer,
  planUnshield,
  parseRelayBundle,
  randomFieldElement,
  toRelayBundle,
  zeroValues,
  shieldedPoolAbi,
  testTokenAbi,
  type OwnedNote,
  type PoolContext,
  type ShieldedKeys,
} from '../../server/privacy/index.js';
import { deployAccountAbstraction, deployContract, deployPool, devKeys, readArtifact, startAnvil, startDevnet, type Devnet } from '../helpers/devnet.js';
import { poseidon2 } from 'poseidon-lite';
import { hostileReceiverAbi, shieldedPoolHarnessAbi } from '../../server/privacy/contract-abis.js';
import { newKeys, ownNote } from './fixtures.js';
import { cloneTx, proveTransaction, sendTransact, simulateTransact, type ProvedTransaction } from './pool-helpers.js';
import { computeCommitment } from '../../server/privacy/note.js';

let devnet: Devnet;
let client: PublicClient;
let pool: Address;
let token: Address;
let chainId: bigint;
let indexer: PoolIndexer;
const prover = new JoinSplitProver();
const alice = newKeys();
const bob = newKeys();
const gas: Record<string, bigint> = {};

async function deadline(): Promise<bigint> {
  return (await client.getBlock()).timestamp + 3600n;
}

async function ctx(): Promise<PoolContext> {
  await indexer.sync();
  return { chainId, pool, tree: indexer.tree };
}

async function unspent(keys: ShieldedKeys, tokenAddress: Address): Promise<OwnedNote[]> {
  await indexer.sync();
  return indexer.unspentNotes(keys, BigInt(tokenAddress));
}

beforeAll(async () => {
  devnet = await startDevnet({ bundler: false });
  client = devnet.publicClient;
  pool = devnet.config.pool as Address;
  token = devnet.config.token as Address;
  chainId = BigInt(devnet.config.chainId);
  indexer = new PoolIndexer({ client, chainId, pool, fromBlock: BigInt(devnet.config.poolDeployBlock) });
}, 60_000);

afterAll(async () => {
  await prover.close();
  await devnet?.stop();
  console.log('gas used per operation:', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
});

describe('on-chain Poseidon', () => {
  it('matches poseidon-lite (the circuit\'s hash) for the pool hasher and the circomlibjs one', async () => {
    const inputs: [bigint, bigint][] = [[0n, 0n], [1n, 2n], [FIELD_SIZE - 1n, FIELD_SIZE - 2n]];
    for (let i = 0; i < 40; i++) inputs.push([randomFieldElement(), randomFieldElement()]);
    for (const name of ['PoseidonHasher', 'PoseidonT3']) {
      const { address } = await deployContract(devnet.deployer, client, name);
      const { abi } = readArtifact(name);
      for (const pair of inputs) {
        expect(await client.readContract({ address, abi, functionName: 'poseidon', args: [pair] })).toBe(poseidon2(pair));
      }
    }
    // The contract's empty-subtree constants are the client's, level by level.
    const zeros = zeroValues(20);
    for (let i = 0; i <= 20; i++) expect(await client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'zeros', args: [BigInt(i)] })).toBe(zeros[i]);
    const hasher = await client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'hasher' });
    expect(await client.readContract({ address: hasher, abi: readArtifact('PoseidonHasher').abi, functionName: 'poseidon', args: [[3n, 4n]] })).toBe(poseidon2([3n, 4n]));
  });
});

describe('shield → transfer → unshield on the devnet', () => {
  const user = () => devnet.walletFor(devKeys.user);
  const relayer = () => devnet.walletFor(devKeys.user2);

  it('moves real ETH: Alice shields, pays Bob privately, Bob unshields to a fresh address', async () => {
    const poolBefore = await client.getBalance({ address: pool });
    const shield = await proveTransaction(prover, planShield({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, amount: parseEther('1'), deadline: await deadline() }));
    gas.shieldEth = (await sendTransact(user(), client, pool, shield)).gasUsed;
    expect(await client.getBalance({ address: pool })).toBe(poolBefore + parseEther('1'));
    expect((await unspent(alice, ZERO_ADDRESS)).map((n) => n.amount)).toEqual([parseEther('1')]);

    // Bob's address travels as text; the transfer is submitted by someone else (a relayer).
    const bobAddress = decodeAddress(encodeAddress(bob));
    const transfer = await proveTransaction(prover, planTransfer({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, amount: parseEther('0.4'), deadline: await deadline(), notes: await unspent(alice, ZERO_ADDRESS), to: bobAddress }));
    // It travels to the relayer as the JSON relay bundle and is rebuilt from it.
    const relayed = parseRelayBundle(JSON.parse(JSON.stringify(toRelayBundle(transfer.args, 'local'))));
    expect(relayed.chain).toBe('local');
    gas.transferEth = (await sendTransact(relayer(), client, pool, { args: relayed.args, value: 0n })).gasUsed;
    expect(await client.getBalance({ address: pool })).toBe(poolBefore + parseEther('1'));
    expect((await unspent(bob, ZERO_ADDRESS)).map((n) => n.amount)).toEqual([parseEther('0.4')]);
    expect((await unspent(alice, ZERO_ADDRESS)).map((n) => n.amount)).toEqual([parseEther('0.6')]);
    expect(indexer.scanNotes(alice).sent.map((n) => [n.amount, n.pubkey])).toEqual([[parseEther('0.4'), bob.pubkey]]);

    // Reusing the same bundle, or a fresh proof of an already spent note, is refused.
    expect(await simulateTransact(client, pool, relayer().account.address, transfer)).toBe('NullifierAlreadySpent');
    const spentNote = spentInput(transfer, 0);
    const again = await proveTransaction(prover, planTransaction({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, inputs: [spentNote], outputs: [{ note: createNote(parseEther('1'), alice.pubkey, 0n), owner: alice }], extAmount: 0n, deadline: await deadline() }));
    expect(await simulateTransact(client, pool, relayer().account.address, again)).toBe('NullifierAlreadySpent');

    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const relayerBefore = await client.getBalance({ address: relayer().account.address });
    const unshield = await proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: bob, token: ZERO_ADDRESS, amount: parseEther('0.25'), deadline: await deadline(), notes: await unspent(bob, ZERO_ADDRESS), recipient: fresh, fee: parseEther('0.01'), relayer: relayer().account.address }));
    const receipt = await sendTransact(relayer(), client, pool, unshield);
    gas.unshieldEth = receipt.gasUsed;
    expect(await client.getBalance({ address: fresh })).toBe(parseEther('0.25'));
    expect(await client.getBalance({ address: relayer().account.address })).toBe(relayerBefore + parseEther('0.01') - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await client.getBalance({ address: pool })).toBe(poolBefore + parseEther('0.74'));
    expect((await unspent(bob, ZERO_ADDRESS)).map((n) => n.amount)).toEqual([parseEther('0.14')]);
  }, 120_000);

  it('moves a real ERC-20 the same way', async () => {
    const amount = 1000n * 10n ** 18n;
    const u = user();
    await client.waitForTransactionReceipt({ hash: await u.writeContract({ address: token, abi: testTokenAbi, functionName: 'mint', args: [u.account.address, amount] }) });
    await client.waitForTransactionReceipt({ hash: await u.writeContract({ address: token, abi: testTokenAbi, functionName: 'approve', args: [pool, amount] }) });
    const balanceOf = (a: Address) => client.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [a] });

    const shield = await proveTransaction(prover, planShield({ ctx: await ctx(), keys: alice, token, amount, deadline: await deadline() }));
    expect(shield.value).toBe(0n);
    gas.shieldErc20 = (await sendTransact(u, client, pool, shield)).gasUsed;
    expect(await balanceOf(pool)).toBe(amount);
    expect(await balanceOf(u.account.address)).toBe(0n);

    const transfer = await proveTransaction(prover, planTransfer({ ctx: await ctx(), keys: alice, token, amount: 400n * 10n ** 18n, deadline: await deadline(), notes: await unspent(alice, token), to: bob }));
    gas.transferErc20 = (await sendTransact(relayer(), client, pool, transfer)).gasUsed;
    expect((await unspent(bob, token)).map((n) => n.amount)).toEqual([400n * 10n ** 18n]);
    // ETH notes are untouched by the token transfer.
    expect((await unspent(alice, ZERO_ADDRESS)).map((n) => n.amount)).toEqual([parseEther('0.6')]);

    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const unshield = await proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: bob, token, amount: 150n * 10n ** 18n, deadline: await deadline(), notes: await unspent(bob, token), recipient: fresh }));
    gas.unshieldErc20 = (await sendTransact(relayer(), client, pool, unshield)).gasUsed;
    expect(await balanceOf(fresh)).toBe(150n * 10n ** 18n);
    expect(await balanceOf(pool)).toBe(850n * 10n ** 18n);
  }, 120_000);
});

/** Alice's note that input `i` of a proved transaction spent, rebuilt from its witness input. */
function spentInput(tx: ProvedTransaction, i: number): OwnedNote {
  const input = tx.planned.joinSplit.input;
  const note = { amount: BigInt((input.inAmount as string[])[i]), pubkey: alice.pubkey, blinding: BigInt((input.inBlinding as string[])[i]), token: 0n };
  return ownNote(alice, note, Number((input.inLeafIndex as string[])[i]));
}

describe('rejections', () => {
  let bundle: ProvedTransaction;
  const from = () => devnet.walletFor(devKeys.user2).account.address;

  beforeAll(async () => {
    // A valid, unsubmitted private transfer from Alice: every test below alters one thing.
    bundle = await proveTransaction(prover, planTransfer({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, amount: parseEther('0.1'), deadline: await deadline(), notes: await unspent(alice, ZERO_ADDRESS), to: bob, fee: parseEther('0.001'), relayer: devnet.walletFor(devKeys.user2).account.address }));
  }, 60_000);

  it('accepts the unaltered bundle (control)', async () => {
    expect(await simulateTransact(client, pool, from(), bundle)).toBe('ok');
  });

  it('refuses ETH attached to a transaction that deposits none', async () => {
    expect(await simulateTransact(client, pool, from(), { ...cloneTx(bundle), value: 1n })).toBe('InvalidEthValue');
  });

  it('refuses root 0 and an unknown root', async () => {
    const zero = cloneTx(bundle);
    zero.args.proof.root = 0n;
    expect(await simulateTransact(client, pool, from(), zero)).toBe('UnknownRoot');
    const unknown = cloneTx(bundle);
    unknown.args.proof.root = 12345n;
    expect(await simulateTransact(client, pool, from(), unknown)).toBe('UnknownRoot');
  });

  it('refuses any public input at or above the field modulus (aliases)', async () => {
    const alter = (f: (t: ProvedTransaction) => void) => {
      const t = cloneTx(bundle);
      f(t);
      return simulateTransact(client, pool, from(), t);
    };
    const p = FIELD_SIZE;
    expect(await alter((t) => void (t.args.proof.root += p))).toBe('FieldOverflow');
    const [n0, n1] = bundle.args.proof.inputNullifiers;
    const [c0, c1] = bundle.args.proof.outputCommitments;
    expect(await alter((t) => void (t.args.proof.inputNullifiers = [n0 + p, n1]))).toBe('FieldOverflow');
    expect(await alter((t) => void (t.args.proof.inputNullifiers = [n0, n1 + p]))).toBe('FieldOverflow');
    expect(await alter((t) => void (t.args.proof.outputCommitments = [c0 + p, c1]))).toBe('FieldOverflow');
    expect(await alter((t) => void (t.args.proof.outputCommitments = [c0, c1 + p]))).toBe('FieldOverflow');
  });

  it('refuses any change to a bound extData field (front-running)', async () => {
    const other = privateKeyToAccount(generatePrivateKey()).address;
    const changes: [string, (t: ProvedTransaction) => void][] = [
      ['recipient', (t) => void (t.args.extData.recipient = other)],
      ['relayer', (t) => void (t.args.extData.relayer = other)],
      ['fee', (t) => void (t.args.extData.fee += 1n)],
      ['extAmount', (t) => void (t.args.extData.extAmount = -1n)],
      ['token', (t) => void (t.args.extData.token = token)],
      ['deadline', (t) => void (t.args.extData.deadline -= 1n)],
      ['encryptedNotesRecipient', (t) => void (t.args.extData.encryptedNotesRecipient[0] = `0x${t.args.extData.encryptedNotesRecipient[0].slice(2, -2)}00`)],
      ['encryptedNotesSender', (t) => void (t.args.extData.encryptedNotesSender[1] = '0x')],
      ['proof', (t) => void (t.args.proof.a = [1n, t.args.proof.a[1]])],
    ];
    for (const [field, change] of changes) {
      const t = cloneTx(bundle);
      change(t);
      expect([field, await simulateTransact(client, pool, from(), t)]).toEqual([field, 'InvalidProof']);
    }
  });

  it('refuses the same bundle on another deployment and on another chain id', async () => {
    // A shield against the empty-tree root is valid on any fresh pool, so only the binding to
    // chain id and pool address can stop the replay.
    const shield = await proveTransaction(prover, planShield({ ctx: { chainId, pool, tree: new MerkleTree() }, keys: alice, token: ZERO_ADDRESS, amount: 5n, deadline: await deadline() }));
    expect(await simulateTransact(client, pool, from(), shield)).toBe('ok');

    const second = await deployPool(devnet.deployer, client);
    expect(await simulateTransact(client, second.pool, from(), shield)).toBe('InvalidProof');

    // Same deployer and nonces on a chain with another id: the pool lands at the same address.
    const otherChain = await startAnvil(Number(chainId) + 1);
    try {
      const chain = { id: Number(chainId) + 1, name: 'other', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [otherChain.rpcUrl] } } } as const;
      const otherClient = createPublicClient({ chain, transport: http(otherChain.rpcUrl), pollingInterval: 50 }) as PublicClient;
      const { createWalletClient } = await import('viem');
      const wallet = createWalletClient({ account: privateKeyToAccount(devKeys.deployer), chain, transport: http(otherChain.rpcUrl) });
      await deployAccountAbstraction(wallet, otherClient);
      const replica = await deployPool(wallet, otherClient);
      expect(replica.pool).toBe(pool);
      expect(await simulateTransact(otherClient, replica.pool, from(), shield)).toBe('InvalidProof');
    } finally {
      otherChain.child.kill('SIGTERM');
    }
  }, 60_000);

  it(`accepts a root exactly ${ROOT_HISTORY_SIZE - 1} insertions old and refuses it one insertion later`, async () => {
    const harness = await deployPool(devnet.deployer, client, { harness: true });
    const tree = new MerkleTree();
    const hctx = { chainId, pool: harness.pool, tree };
    const user = devnet.walletFor(devKeys.user);
    // One shield creates two notes of Alice's in one insertion.
    const a = createNote(5n, alice.pubkey, 0n);
    const b = createNote(7n, alice.pubkey, 0n);
    const shield = await proveTransaction(prover, planTransaction({ ctx: hctx, keys: alice, token: ZERO_ADDRESS, inputs: [], outputs: [{ note: a, owner: alice }, { note: b, owner: alice }], extAmount: 12n, deadline: await deadline() }));
    await sendTransact(user, client, harness.pool, shield);
    tree.insertPair(computeCommitment(a), computeCommitment(b));
    const root = tree.root;
    const spend = async (note: typeof a, index: number) =>
      proveTransaction(prover, planTransaction({ ctx: hctx, keys: alice, token: ZERO_ADDRESS, inputs: [ownNote(alice, note, index)], outputs: [{ note: createNote(note.amount, bob.pubkey, 0n), owner: bob }], extAmount: 0n, deadline: await deadline() }));
    const first = await spend(a, 0);
    const second = await spend(b, 1);

    for (let i = 0; i < ROOT_HISTORY_SIZE - 1; i++) {
      const hash = await user.writeContract({ address: harness.pool, abi: shieldedPoolHarnessAbi, functionName: 'insertPairForTest', args: [BigInt(1000 + 2 * i), BigInt(1001 + 2 * i)] });
      if (i === ROOT_HISTORY_SIZE - 2) await client.waitForTransactionReceipt({ hash });
    }
    // 99 insertions after `root`: still inside the ring of 100 (current + 99 previous).
    expect(await client.readContract({ address: harness.pool, abi: shieldedPoolAbi, functionName: 'isKnownRoot', args: [root] })).toBe(true);
    await sendTransact(user, client, harness.pool, first);
    // `first` was the 100th insertion: `root` has left the ring.
    expect(await client.readContract({ address: harness.pool, abi: shieldedPoolAbi, functionName: 'isKnownRoot', args: [root] })).toBe(false);
    expect(await simulateTransact(client, harness.pool, from(), second)).toBe('UnknownRoot');
  }, 120_000);

  it('refuses a fee-on-transfer token (the pool would hold less than the notes say)', async () => {
    const u = devnet.walletFor(devKeys.user);
    const fee = (await deployContract(devnet.deployer, client, 'FeeOnTransferToken')).address;
    await client.waitForTransactionReceipt({ hash: await u.writeContract({ address: fee, abi: testTokenAbi, functionName: 'mint', args: [u.account.address, 1000n] }) });
    await client.waitForTransactionReceipt({ hash: await u.writeContract({ address: fee, abi: testTokenAbi, functionName: 'approve', args: [pool, 1000n] }) });
    const shield = await proveTransaction(prover, planShield({ ctx: await ctx(), keys: alice, token: fee, amount: 1000n, deadline: await deadline() }));
    expect(await simulateTransact(client, pool, u.account.address, shield)).toBe('UnsupportedToken');
  }, 60_000);

  it('refuses a bundle after its deadline', async () => {
    await client.request({ method: 'evm_increaseTime' as never, params: [7200] as never });
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    expect(await simulateTransact(client, pool, from(), bundle)).toBe('Expired');
  });
});

describe('payouts that fail or re-enter', () => {
  // Carol's own notes, so these tests do not depend on what the others left unspent.
  const carol = newKeys();
  const user = () => devnet.walletFor(devKeys.user);
  const from = () => devnet.walletFor(devKeys.user2).account.address;
  let hostile: Address;

  const setRefuse = async (refuse: boolean) =>
    client.waitForTransactionReceipt({ hash: await user().writeContract({ address: hostile, abi: hostileReceiverAbi, functionName: 'setRefuse', args: [refuse] }) });
  const readHostile = <F extends 'reentered' | 'reentrySucceeded' | 'reentryRevert'>(functionName: F) => client.readContract({ address: hostile, abi: hostileReceiverAbi, functionName });
  const isSpent = (nullifier: bigint) => client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'nullifierSpent', args: [nullifier] });
  /** Carol's unspent ETH note of exactly `amount`. */
  const carolNote = async (amount: bigint) => {
    const note = (await unspent(carol, ZERO_ADDRESS)).find((n) => n.amount === amount);
    if (!note) throw new Error(`Carol has no note of ${amount}`);
    return note;
  };
  const unshieldTo = async (amount: bigint, recipient: Address, extra: { fee?: bigint; relayer?: Address } = {}) =>
    proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: carol, token: ZERO_ADDRESS, amount, deadline: await deadline(), notes: [await carolNote(parseEther('1'))], recipient, ...extra }));

  beforeAll(async () => {
    for (const amount of [parseEther('1'), parseEther('2')]) {
      await sendTransact(user(), client, pool, await proveTransaction(prover, planShield({ ctx: await ctx(), keys: carol, token: ZERO_ADDRESS, amount, deadline: await deadline() })));
    }
    hostile = (await deployContract(devnet.deployer, client, 'HostileReceiver')).address;
  }, 60_000);

  it('refuses an unshield to address 0 (the ETH would be burnt)', async () => {
    const burn = await unshieldTo(parseEther('0.5'), ZERO_ADDRESS);
    expect(burn.args.extData.recipient).toBe(ZERO_ADDRESS);
    expect(await simulateTransact(client, pool, from(), burn)).toBe('InvalidRecipient');
  }, 60_000);

  it('refuses a "token" address without code (a call to it would succeed and move nothing)', async () => {
    const noCode = privateKeyToAccount(generatePrivateKey()).address;
    const shield = await proveTransaction(prover, planShield({ ctx: await ctx(), keys: carol, token: noCode, amount: 10n, deadline: await deadline() }));
    expect(await simulateTransact(client, pool, user().account.address, shield)).toBe('UnsupportedToken');
  }, 60_000);

  it('reverts the whole transaction when a payout fails: nothing is spent, inserted or paid', async () => {
    await setRefuse(true);
    const toRecipient = await unshieldTo(parseEther('0.5'), hostile);
    const toRelayer = await unshieldTo(parseEther('0.5'), privateKeyToAccount(generatePrivateKey()).address, { fee: parseEther('0.01'), relayer: hostile });
    expect(await simulateTransact(client, pool, from(), toRecipient)).toBe('TransferFailed');
    expect(await simulateTransact(client, pool, from(), toRelayer)).toBe('TransferFailed');

    // Mined for real, it reverts and leaves the pool as it was.
    const poolBefore = await client.getBalance({ address: pool });
    const rootBefore = await client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'getLastRoot' });
    const hash = await user().writeContract({ address: pool, abi: shieldedPoolAbi, functionName: 'transact', args: [toRecipient.args.proof, toRecipient.args.extData], gas: 3_000_000n });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await client.getBalance({ address: pool })).toBe(poolBefore);
    expect(await client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'getLastRoot' })).toBe(rootBefore);
    for (const n of toRecipient.args.proof.inputNullifiers) expect(await isSpent(n)).toBe(false);
    expect(await client.getBalance({ address: hostile })).toBe(0n);

    // Once the recipient accepts ETH, the very same bundle goes through.
    await setRefuse(false);
    await sendTransact(user(), client, pool, toRecipient);
    expect(await client.getBalance({ address: hostile })).toBe(parseEther('0.5'));
  }, 120_000);

  it('refuses re-entry from a payout recipient (Reentrancy); the re-entering bundle stays valid on its own', async () => {
    // The inner bundle is a valid unshield of Carol's other note to a fresh address.
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const inner = await proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: carol, token: ZERO_ADDRESS, amount: parseEther('2'), deadline: await deadline(), notes: [await carolNote(parseEther('2'))], recipient: fresh }));
    const innerCall = encodeFunctionData({ abi: shieldedPoolAbi, functionName: 'transact', args: [inner.args.proof, inner.args.extData] });
    await client.waitForTransactionReceipt({ hash: await user().writeContract({ address: hostile, abi: hostileReceiverAbi, functionName: 'arm', args: [pool, innerCall] }) });

    // The outer unshield pays the hostile receiver 0.3 of Carol's 0.5 change, which calls back in.
    const changeNote = await carolNote(parseEther('0.5'));
    const outer = await proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: carol, token: ZERO_ADDRESS, amount: parseEther('0.3'), deadline: await deadline(), notes: [changeNote], recipient: hostile }));
    const hostileBefore = await client.getBalance({ address: hostile });
    await sendTransact(user(), client, pool, outer);
    expect(await readHostile('reentered')).toBe(true);
    expect(await readHostile('reentrySucceeded')).toBe(false);
    expect(decodeErrorResult({ abi: shieldedPoolAbi, data: await readHostile('reentryRevert') }).errorName).toBe('Reentrancy');
    expect(await client.getBalance({ address: hostile })).toBe(hostileBefore + parseEther('0.3'));
    for (const n of inner.args.proof.inputNullifiers) expect(await isSpent(n)).toBe(false);
    expect(await client.getBalance({ address: fresh })).toBe(0n);

    // The lock was released with the outer call: the same inner bundle now succeeds by itself.
    await sendTransact(user(), client, pool, inner);
    expect(await client.getBalance({ address: fresh })).toBe(parseEther('2'));
  }, 120_000);
});
