// The server's on-device prover: one warm JoinSplitProver per running server, bounded by
// `proverTimeoutMs`. The worker is closed after a minute without proofs so an idle app does not
// hold the proving key in memory (and a closing process is not kept alive by it).
import fs from 'node:fs';
import type { Context } from '../context.js';
import { ServiceUnavailableError } from '../http/errors.js';
import { defaultCircuitArtifacts, JoinSplitProver, ProverTimeoutError as LibProverTimeout, type SolidityProof, type CircuitInput, toSolidityProof, encodeProof } from '../privacy/index.js';
import type { Hex } from 'viem';
import { ProverTimeoutError } from './errors.js';

const IDLE_CLOSE_MS = 60_000;

interface ProverSlot {
  prover: JoinSplitProver;
  idle?: NodeJS.Timeout;
  /** Proofs asked for and not yet answered (queued or proving): the worker is never closed under them. */
  active: number;
}

const slots = new WeakMap<Context, ProverSlot>();

function slotFor(ctx: Context): ProverSlot {
  let slot = slots.get(ctx);
  if (!slot) {
    const artifacts = defaultCircuitArtifacts();
    if (!fs.existsSync(artifacts.wasmPath) || !fs.existsSync(artifacts.zkeyPath)) throw new ServiceUnavailableError('Circuit artifacts are missing (resources/zk)');
    slot = { prover: new JoinSplitProver({ artifacts, timeoutMs: ctx.config.proverTimeoutMs }), active: 0 };
    slots.set(ctx, slot);
  }
  return slot;
}

export interface ProvedJoinSplit {
  proof: SolidityProof;
  proofHex: Hex;
  ms: number;
}

/** Proves on this device in the worker; `Prover timeout` (504) when it takes longer than allowed. */
export async function proveJoinSplit(ctx: Context, input: CircuitInput): Promise<ProvedJoinSplit> {
  const slot = slotFor(ctx);
  clearTimeout(slot.idle);
  slot.active += 1;
  const started = performance.now();
  try {
    const result = await slot.prover.prove(input);
    const proof = toSolidityProof(result.proof);
    return { proof, proofHex: encodeProof(proof), ms: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof LibProverTimeout) throw new ProverTimeoutError(ctx.config.proverTimeoutMs);
    throw err;
  } finally {
    slot.active -= 1;
    // Idle means no proof at all for a minute: a proof still queued behind this one (slow on a
    // busy machine) must not have its worker closed under it.
    if (slot.active === 0) {
      clearTimeout(slot.idle);
      slot.idle = setTimeout(() => slot.active === 0 && void slot.prover.close(), IDLE_CLOSE_MS);
      slot.idle.unref();
    }
  }
}

/** Stops the prover worker (server shutdown, tests). */
export async function closeProver(ctx: Context): Promise<void> {
  const slot = slots.get(ctx);
  if (!slot) return;
  clearTimeout(slot.idle);
  slots.delete(ctx);
  await slot.prover.close();
}
