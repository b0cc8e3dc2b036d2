// The JoinSplit circuit itself: valid shield / transfer / unshield prove (in the warm worker) and
// verify; each invalid case fails already at witness generation (wasm calculator, no proving).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import {
  AMOUNT_LIMIT,
  FIELD_SIZE,
  JoinSplitProver,
  buildJoinSplit,
  createNote,
  defaultCircuitArtifacts,
  flattenPublicSignals,
  planMerge,
  releaseCurve,
  ZERO_ADDRESS,
  verifyJoinSplitProof,
  type CircuitInput,
  type JoinSplit,
} from '../../server/privacy/index.js';
import { hashCommitment, hashNullifier } from '../../server/privacy/hash.js';
import { newKeys, treeWithNotes } from './fixtures.js';

const artifacts = defaultCircuitArtifacts();
const prover = new JoinSplitProver({ timeoutMs: 120_000 });

afterAll(async () => {
  await prover.close();
  await releaseCurve();
});

// Each invalid case must fail at the constraint that forbids it, not somewhere else: failures are
// located by the source line circom reports, looked up from the constraint's text.
const circuitSource = readFileSync(new URL('../../circuits/joinsplit.circom', import.meta.url), 'utf8').split('\n');
function failsAt(constraint: string): RegExp {
  const line = circuitSource.findIndex((l) => l.includes(constraint)) + 1;
  if (line === 0) throw new Error(`constraint not found: ${constraint}`);
  return new RegExp(`Assert Failed[\\s\\S]*JoinSplit_\\d+ line: ${line}\\b`);
}
const RANGE = failsAt('outRange[i].in <== outAmount[i]');
const BALANCE = failsAt('sumIns + publicAmount === sumOuts');
const DISTINCT_NULLIFIERS = failsAt('sameNullifier[pair].out === 0');
const MEMBERSHIP = failsAt('inRootCheck[i].in[1] <== inTree[i].root');
const OUTPUT_COMMITMENT = failsAt('outCommitment[i].commitment === outputCommitment[i]');

async function witness(input: CircuitInput): Promise<void> {
  await snarkjs.wtns.calculate(input, artifacts.wasmPath, { type: 'mem' });
}

async function proveAndVerify(js: JoinSplit): Promise<boolean> {
  const { proof, publicSignals } = await prover.prove(js.input);
  expect(publicSignals.map(BigInt)).toEqual(flattenPublicSignals(js.publicSignals));
  return verifyJoinSplitProof(flattenPublicSignals(js.publicSignals), proof);
}

const alice = newKeys();
const bob = newKeys();
const { tree, notes } = treeWithNotes(alice, [70n, 30n, 50n]);

function validTransfer(): JoinSplit {
  return buildJoinSplit({
    tree,
    spendingKey: alice.spendingKey,
    token: 0n,
    inputs: [notes[0], notes[1]],
    outputs: [createNote(60n, bob.pubkey, 0n), createNote(40n, alice.pubkey, 0n)],
    extAmount: 0n,
    fee: 0n,
    extDataHash: 42n,
  });
}

describe('JoinSplit circuit: valid transactions prove and verify', () => {
  it('a 2x2 private transfer', async () => {
    const js = validTransfer();
    expect(await proveAndVerify(js)).toBe(true);
    // The same proof does not verify for a different extDataHash (it is a bound public input).
    const { proof } = await prover.prove(js.input);
    const other = flattenPublicSignals({ ...js.publicSignals, extDataHash: 43n });
    expect(await verifyJoinSplitProof(other, proof)).toBe(false);
  });

  it('a shield (publicAmount > 0) with two dummy inputs that have no Merkle path', async () => {
    const js = buildJoinSplit({ tree, spendingKey: alice.spendingKey, token: 0n, inputs: [], outputs: [createNote(500n, alice.pubkey, 0n)], extAmount: 500n, fee: 0n, extDataHash: 7n });
    expect(js.publicSignals.publicAmount).toBe(500n);
    expect(await proveAndVerify(js)).toBe(true);
  });

  it('an unshield (publicAmount < 0, i.e. p - amount) with a fee', async () => {
    const js = buildJoinSplit({ tree, spendingKey: alice.spendingKey, token: 0n, inputs: [notes[2]], outputs: [createNote(15n, alice.pubkey, 0n)], extAmount: -30n, fee: 5n, extDataHash: 9n });
    expect(js.publicSignals.publicAmount).toBe(FIELD_SIZE - 35n);
    expect(await proveAndVerify(js)).toBe(true);
  });
});

describe('transaction planning produces valid witnesses', () => {
  it('merges the two largest notes into one (what a fragmented balance needs first)', async () => {
    const three = treeWithNotes(alice, [4n, 9n, 6n]);
    const merge = planMerge({ ctx: { chainId: 1n, pool: '0x0000000000000000000000000000000000000001', tree: three.tree }, keys: alice, token: ZERO_ADDRESS, deadline: 1n, notes: three.notes });
    expect(merge.outputs.map((n) => n.amount)).toEqual([15n, 0n]);
    expect(merge.extData.extAmount).toBe(0n);
    await expect(witness(merge.joinSplit.input)).resolves.toBeUndefined();
  });
});

describe('JoinSplit circuit: witness generation fails for invalid transactions', () => {
  it('accepts the unmodified transfer (control)', async () => {
    await expect(witness(validTransfer().input)).resolves.toBeUndefined();
  });

  it('unbalanced amounts', async () => {
    const { input, outputs } = validTransfer();
    const out = outputs[0];
    (input.outAmount as string[])[0] = String(out.amount + 1n);
    (input.outputCommitment as string[])[0] = String(hashCommitment(out.amount + 1n, out.pubkey, out.blinding, out.token));
    await expect(witness(input)).rejects.toThrow(BALANCE);
  });

  it('an output of 2^128 or more, and a "negative" output wrapping around the field', async () => {
    const big = buildJoinSplit({ tree, spendingKey: alice.spendingKey, token: 0n, inputs: [], outputs: [createNote(1n, alice.pubkey, 0n)], extAmount: 1n, fee: 0n, extDataHash: 1n });
    const set = (js: JoinSplit, amounts: bigint[], publicAmount: bigint) => {
      js.input.publicAmount = String(publicAmount);
      js.input.outAmount = amounts.map(String);
      js.input.outputCommitment = js.outputs.map((o, i) => String(hashCommitment(amounts[i], o.pubkey, o.blinding, o.token)));
    };
    set(big, [AMOUNT_LIMIT, 0n], AMOUNT_LIMIT);
    await expect(witness(big.input)).rejects.toThrow(RANGE);
    // 10 = (p - 1) + 11 in the field: balances, but only because an output is "negative".
    const wrap = validTransfer();
    set(wrap, [FIELD_SIZE - 1n, 101n], 0n);
    await expect(witness(wrap.input)).rejects.toThrow(RANGE);
  });

  it('two inputs with the same nullifier (one note spent twice)', async () => {
    const js = buildJoinSplit({ tree, spendingKey: alice.spendingKey, token: 0n, inputs: [notes[0], notes[0]], outputs: [createNote(140n, bob.pubkey, 0n)], extAmount: 0n, fee: 0n, extDataHash: 3n });
    await expect(witness(js.input)).rejects.toThrow(DISTINCT_NULLIFIERS);
  });

  it('a wrong Merkle path for a non-zero input', async () => {
    const { input } = validTransfer();
    (input.inPathElements as string[][])[1][5] = '12345';
    await expect(witness(input)).rejects.toThrow(MEMBERSHIP);
  });

  it('a token mismatch between inputs and outputs', async () => {
    // Outputs claim token 0xbeef while the spent notes (and the public token) are ETH.
    const js = validTransfer();
    js.input.outputCommitment = js.outputs.map((o) => String(hashCommitment(o.amount, o.pubkey, o.blinding, 0xbeefn)));
    await expect(witness(js.input)).rejects.toThrow(OUTPUT_COMMITMENT);
    // Or the whole transaction claims another token: the spent ETH notes are then not in the tree.
    const relabelled = validTransfer();
    relabelled.input.token = String(0xbeefn);
    relabelled.input.outputCommitment = relabelled.outputs.map((o) => String(hashCommitment(o.amount, o.pubkey, o.blinding, 0xbeefn)));
    // Nullifiers consistent with the relabelled notes, so only membership can catch it.
    relabelled.input.inputNullifier = [notes[0], notes[1]].map((n) =>
      String(hashNullifier(alice.spendingKey, hashCommitment(n.amount, n.pubkey, n.blinding, 0xbeefn), n.leafIndex)),
    );
    await expect(witness(relabelled.input)).rejects.toThrow(MEMBERSHIP);
  });
});

describe('prover worker', () => {
  it('is terminated with its proving threads on timeout ("Prover timeout") and replaced by a fresh one', async () => {
    const impatient = new JoinSplitProver({ timeoutMs: 1500 });
    const threadsBefore = osThreadCount();
    try {
      const attempt = impatient.prove(validTransfer().input);
      await new Promise((r) => setTimeout(r, 300));
      const threadId = impatient.threadId;
      expect(threadId).toBeGreaterThan(0);
      await expect(attempt).rejects.toThrow('Prover timeout');
      expect(impatient.threadId).toBeUndefined();
      // The prover thread and snarkjs' pool threads inside it are all gone.
      await expect.poll(osThreadCount, { timeout: 5000 }).toBeLessThanOrEqual(threadsBefore);
      // The next proof gets a new thread and succeeds with a sane timeout.
      const js = validTransfer();
      const { proof } = await impatient.prove(js.input, { timeoutMs: 120_000 });
      expect(await verifyJoinSplitProof(flattenPublicSignals(js.publicSignals), proof)).toBe(true);
      expect(impatient.threadId).toBeGreaterThan(threadId!);
    } finally {
      await impatient.close();
    }
    expect(osThreadCount()).toBeLessThanOrEqual(threadsBefore);
  }, 180_000);

  it('reports a witness that violates a constraint and stays usable', async () => {
    const js = validTransfer();
    const unbalanced = { ...js.input, outAmount: (js.input.outAmount as string[]).map((a, i) => (i === 0 ? String(BigInt(a) + 1n) : a)) };
    await expect(prover.prove(unbalanced as CircuitInput)).rejects.toThrow(/Assert Failed/);
    const { proof } = await prover.prove(js.input);
    expect(await verifyJoinSplitProof(flattenPublicSignals(js.publicSignals), proof)).toBe(true);
  }, 180_000);
});

/** OS threads of this process (Linux): the prover thread plus snarkjs' pool, when running. */
function osThreadCount(): number {
  return readdirSync('/proc/self/task').length;
}
