// Shielded-pool benchmark: a cold snarkjs fullProve against our warm prover thread on the same
// input, off-chain verification, and the gas of each pool operation on the devnet. "Cold" is
// measured two ways: in a fresh process per proof (what an app without a warm prover pays), and
// in this process after releasing the curve (files re-read, curve and threads rebuilt, but V8
// keeps compiled wasm — a lower bound). A third baseline is snarkjs' own warm path in this
// process: groth16.prove on the zkey in memory, a compiled witness calculator and a built curve,
// which is what the prover thread does in its own thread (so that ratio shows the thread's
// overhead). All of them alternate with the prover thread's proofs, so each sees the same
// background load. Prints figures and ratios; asserts nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import { encodeFunctionData, parseEther, type Address } from 'viem';
import * as snarkjs from 'snarkjs';
import {
  JoinSplitProver,
  PoolIndexer,
  ZERO_ADDRESS,
  buildJoinSplit,
  createNote,
  defaultCircuitArtifacts,
  flattenPublicSignals,
  planShield,
  planTransfer,
  planUnshield,
  releaseCurve,
  verifyJoinSplitProof,
  type CircuitInput,
} from '../../server/privacy/index.js';
import { deployContract, devKeys, readArtifact, startDevnet } from '../helpers/devnet.js';
import { newKeys, treeWithNotes } from '../privacy/fixtures.js';
import { proveTransaction, sendTransact } from '../privacy/pool-helpers.js';
import { snarkjsWarmProver } from './snarkjs-warm-prove.mjs';
import { benchConfirm } from './confirm-flow.js';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarize(samples: number[]) {
  return { n: samples.length, p50: Math.round(percentile(samples, 50)), p95: Math.round(percentile(samples, 95)), min: Math.round(Math.min(...samples)) };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function transferInput(): { input: CircuitInput; signals: bigint[] } {
  const alice = newKeys();
  const bob = newKeys();
  const { tree, notes } = treeWithNotes(alice, [70n, 30n]);
  const js = buildJoinSplit({ tree, spendingKey: alice.spendingKey, token: 0n, inputs: notes, outputs: [createNote(60n, bob.pubkey, 0n), createNote(40n, alice.pubkey, 0n)], extAmount: 0n, fee: 0n, extDataHash: 1n });
  return { input: js.input, signals: flattenPublicSignals(js.publicSignals) };
}

const coldScript = new URL('./cold-full-prove.mjs', import.meta.url).pathname;

/** fullProve's wall time in a fresh node process (start-up and imports excluded). */
async function coldProveInFreshProcess(inputPath: string, wasmPath: string, zkeyPath: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [coldScript, inputPath, wasmPath, zkeyPath]);
  return (JSON.parse(stdout) as { ms: number }).ms;
}

async function benchProving(runs: number) {
  const { wasmPath, zkeyPath } = defaultCircuitArtifacts();
  const { input, signals } = transferInput();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bureau-bench-'));
  const inputPath = path.join(dir, 'input.json');
  writeFileSync(inputPath, JSON.stringify(input, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  const prover = new JoinSplitProver();
  const coldProcess: number[] = [];
  const cold: number[] = [];
  const snarkjsWarm: number[] = [];
  const warm: number[] = [];
  let warmCpuMs = 0; // every thread of this process, the prover thread's pool included
  let snarkjsWarmCpuMs = 0;
  const witness: number[] = [];
  const prove: number[] = [];
  let proof;
  const snarkjsProver = await snarkjsWarmProver(wasmPath, zkeyPath);
  const snarkjsWarmProve = () => snarkjsProver(input);
  try {
    const startMs = await time(() => prover.start());
    const first = await time(async () => (proof = (await prover.prove(input)).proof));
    // Cold and warm alternate so both see the same background load on this shared machine.
    for (let i = 0; i < runs; i++) {
      coldProcess.push(await coldProveInFreshProcess(inputPath, wasmPath, zkeyPath));
      await releaseCurve();
      cold.push(await time(() => snarkjs.groth16.fullProve(input, wasmPath, zkeyPath)));
      await snarkjsWarmProve(); // once more so V8 has tiered the pool's wasm up, as in a warm thread
      const snarkjsCpuBefore = process.cpuUsage();
      snarkjsWarm.push(await time(snarkjsWarmProve));
      const snarkjsCpu = process.cpuUsage(snarkjsCpuBefore);
      snarkjsWarmCpuMs += (snarkjsCpu.user + snarkjsCpu.system) / 1000;
      await releaseCurve();
      const cpuBefore = process.cpuUsage();
      warm.push(
        await time(async () => {
          const result = await prover.prove(input);
          witness.push(result.witnessMs);
          prove.push(result.proveMs);
        }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      warmCpuMs += (cpu.user + cpu.system) / 1000;
    }
    const verify: number[] = [];
    await verifyJoinSplitProof(signals, proof!); // builds the verifier's curve once
    for (let i = 0; i < runs; i++) verify.push(await time(() => verifyJoinSplitProof(signals, proof!)));
    return {
      coldProcess: summarize(coldProcess),
      cold: summarize(cold),
      snarkjsWarm: summarize(snarkjsWarm),
      workerStartMs: Math.round(startMs),
      workerFirstProofMs: Math.round(first),
      warm: summarize(warm),
      warmCpuMsPerProof: warmCpuMs / warm.length,
      snarkjsWarmCpuMsPerProof: snarkjsWarmCpuMs / snarkjsWarm.length,
      warmCoresBusy: warmCpuMs / warm.reduce((a, b) => a + b, 0),
      witness: summarize(witness),
      prove: summarize(prove),
      verify: summarize(verify),
    };
  } finally {
    await prover.close();
    await releaseCurve();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchGas() {
  const devnet = await startDevnet({ bundler: false });
  const prover = new JoinSplitProver();
  try {
    const client = devnet.publicClient;
    const pool = devnet.config.pool as Address;
    const chainId = BigInt(devnet.config.chainId);
    const indexer = new PoolIndexer({ client, chainId, pool, fromBlock: BigInt(devnet.config.poolDeployBlock) });
    const alice = newKeys();
    const bob = newKeys();
    const user = devnet.walletFor(devKeys.user);
    const ctx = async () => (await indexer.sync(), { chainId, pool, tree: indexer.tree });
    const deadline = async () => (await client.getBlock()).timestamp + 3600n;

    const shield = await proveTransaction(prover, planShield({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, amount: parseEther('1'), deadline: await deadline() }));
    const shieldGas = (await sendTransact(user, client, pool, shield)).gasUsed;
    await indexer.sync();
    const transfer = await proveTransaction(prover, planTransfer({ ctx: await ctx(), keys: alice, token: ZERO_ADDRESS, amount: parseEther('0.4'), deadline: await deadline(), notes: indexer.unspentNotes(alice, 0n), to: bob }));
    const transferGas = (await sendTransact(user, client, pool, transfer)).gasUsed;
    await indexer.sync();
    const unshield = await proveTransaction(prover, planUnshield({ ctx: await ctx(), keys: bob, token: ZERO_ADDRESS, amount: parseEther('0.1'), deadline: await deadline(), notes: indexer.unspentNotes(bob, 0n), recipient: user.account.address }));
    const unshieldGas = (await sendTransact(user, client, pool, unshield)).gasUsed;

    // One Poseidon call per implementation, minus the same call to an empty-bodied target
    // (the precompile at 0x04, identity) to strip the 21k base and calldata cost.
    const hasherGas: Record<string, number> = {};
    const baseline = await client.estimateGas({ to: '0x0000000000000000000000000000000000000004', data: encodeFunctionData({ abi: readArtifact('PoseidonHasher').abi, functionName: 'poseidon', args: [[1n, 2n]] }) });
    for (const name of ['PoseidonHasher', 'PoseidonT3']) {
      const { address } = await deployContract(devnet.deployer, client, name);
      const gas = await client.estimateContractGas({ address, abi: readArtifact(name).abi, functionName: 'poseidon', args: [[1n, 2n]] });
      hasherGas[`${name}PerHash`] = Number(gas - baseline);
    }
    return { shieldEth: Number(shieldGas), transferEth: Number(transferGas), unshieldEth: Number(unshieldGas), ...hasherGas };
  } finally {
    await prover.close();
    await devnet.stop();
  }
}

export async function benchPrivacy(runs = 5): Promise<void> {
  const load = os.loadavg()[0].toFixed(1);
  const proving = await benchProving(runs);
  console.log(`privacy: proving a 2x2 JoinSplit (ms; ${os.cpus().length} cores, load average ${load} at start)`);
  const line = (name: string, s: ReturnType<typeof summarize>, extra = '') => console.log(`  ${name.padEnd(34)} p50 ${s.p50}  p95 ${s.p95}  min ${s.min}  (n=${s.n}${extra})`);
  line('cold fullProve, fresh process', proving.coldProcess);
  line('cold fullProve, curve released', proving.cold);
  line('snarkjs groth16.prove, warm', proving.snarkjsWarm, '; zkey in memory, curve built');
  line('warm prover thread', proving.warm, `; thread start ${proving.workerStartMs}, its first proof ${proving.workerFirstProofMs}`);
  console.log(`  of which witness p50 ${proving.witness.p50}, Groth16 prove p50 ${proving.prove.p50}`);
  console.log(`  CPU per warm proof ${Math.round(proving.warmCpuMsPerProof)} ms (snarkjs warm ${Math.round(proving.snarkjsWarmCpuMsPerProof)} ms); cores busy during warm proofs ${proving.warmCoresBusy.toFixed(2)} of ${os.cpus().length}`);
  console.log(`  ratio cold/warm p50: fresh process ${(proving.coldProcess.p50 / proving.warm.p50).toFixed(2)}x, curve released ${(proving.cold.p50 / proving.warm.p50).toFixed(2)}x`);
  console.log(`  ratio snarkjs warm/warm p50: ${(proving.snarkjsWarm.p50 / proving.warm.p50).toFixed(2)}x`);
  console.log(`  verify (off-chain) p50 ${proving.verify.p50}  p95 ${proving.verify.p95}`);
  const gas = await benchGas();
  console.log('privacy: gas per pool operation', gas);
  const confirm = await benchConfirm(Math.max(2, Math.min(runs, 4)));
  console.log('privacy: wallet Confirm → submitted on the devnet (ms, through the API)');
  line('Confirm, proof prepared ahead', summarize(confirm.prepared), '; what the wallet does');
  line('Confirm, proved at Confirm', summarize(confirm.atConfirm));
  line('plain proof (prove-transfer)', summarize(confirm.plainProof));
}

export default benchPrivacy;

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPrivacy(Number(process.env.BENCH_RUNS ?? 5));
}
