// On-device JoinSplit prover in a worker_thread (prover-worker.mjs): proving never blocks the
// event loop and uses both cores through snarkjs' own thread pool, the thread stays warm between
// proofs, and a proof that exceeds the timeout terminates the thread together with its pool (the
// next proof starts a fresh one).
import { Worker } from 'node:worker_threads';
import { defaultCircuitArtifacts, type CircuitArtifacts } from './artifacts.js';
import type { CircuitInput } from './circuit-inputs.js';
import type { Groth16Proof } from './proof.js';

/** The prover thread failed or stopped under a proof (not the input's fault: a retry may work). */
export class ProverWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProverWorkerError';
  }
}

export class ProverTimeoutError extends Error {
  constructor() {
    super('Prover timeout');
    this.name = 'ProverTimeoutError';
  }
}

export interface ProofResult {
  proof: Groth16Proof;
  publicSignals: string[];
  witnessMs: number;
  proveMs: number;
}

interface WorkerReply extends Partial<ProofResult> {
  id?: number;
  type?: 'ready';
  error?: string;
}

export interface ProverOptions {
  artifacts?: Pick<CircuitArtifacts, 'wasmPath' | 'zkeyPath'>;
  timeoutMs?: number;
}

const workerUrl = new URL('./prover-worker.mjs', import.meta.url);

export class JoinSplitProver {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly artifacts: Pick<CircuitArtifacts, 'wasmPath' | 'zkeyPath'>;
  readonly timeoutMs: number;

  constructor(options: ProverOptions = {}) {
    this.artifacts = options.artifacts ?? defaultCircuitArtifacts();
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  /** The prover thread's id while one is running (tests check a timed-out one is replaced). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  /** Starts the thread ahead of the first proof (loads the artifacts, builds the curve). */
  async start(): Promise<void> {
    await this.startWorker();
  }

  /** Proves one witness input; calls are serialised (one proof at a time uses both cores). */
  prove(input: CircuitInput, options: { timeoutMs?: number } = {}): Promise<ProofResult> {
    const run = this.queue.then(() => this.proveNow(input, options.timeoutMs ?? this.timeoutMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the thread and its proving pool; resolves once they have exited. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    await worker?.terminate();
  }

  private startWorker(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(workerUrl, {
      workerData: { wasmPath: this.artifacts.wasmPath, zkeyPath: this.artifacts.zkeyPath },
      // Plain ESM: no loaders from the parent (tsx, vitest) are needed for the .mjs worker.
      execArgv: [],
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (msg: WorkerReply) => {
        if (msg.type !== 'ready') return;
        cleanup();
        resolve();
      };
      const onError = (err: Error) => {
        cleanup();
        reject(new ProverWorkerError(`Prover worker failed to start: ${err.message}`));
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new ProverWorkerError(`Prover worker exited during start (code ${code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    worker.once('exit', () => this.forget(worker));
    this.ready.catch(() => this.discardWorker(worker));
    return this.ready;
  }

  private forget(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
  }

  private discardWorker(worker: Worker): void {
    this.forget(worker);
    void worker.terminate();
  }

  private async proveNow(input: CircuitInput, timeoutMs: number): Promise<ProofResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProverTimeoutError()), timeoutMs);
    });
    try {
      await Promise.race([this.startWorker(), timeout]);
      const worker = this.worker;
      if (!worker) throw new ProverWorkerError('Prover worker was closed');
      const id = this.nextId++;
      const result = new Promise<ProofResult>((resolve, reject) => {
        const onMessage = (msg: WorkerReply) => {
          if (msg.id !== id) return;
          cleanup();
          if (msg.error) reject(new Error(msg.error));
          else resolve(msg as ProofResult);
        };
        const onError = (err: Error) => {
          cleanup();
          reject(new ProverWorkerError(`Prover worker failed: ${err.message}`));
        };
        const onExit = () => {
          cleanup();
          reject(new ProverWorkerError('Prover worker exited'));
        };
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
      });
      worker.postMessage({ id, input });
      return await Promise.race([result, timeout]);
    } catch (err) {
      // On timeout the thread may still be busy: terminate it (and its pool) so the CPU is freed.
      if (err instanceof ProverTimeoutError && this.worker) this.discardWorker(this.worker);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
