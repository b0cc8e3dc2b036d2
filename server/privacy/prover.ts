// On-device JoinSplit prover in a worker_thread: proving never blocks the event loop, the worker
// stays warm between proofs, and a proof that exceeds the timeout terminates the worker (the next
// proof starts a fresh one).
import { Worker } from 'node:worker_threads';
import { defaultCircuitArtifacts, type CircuitArtifacts } from './artifacts.js';
import type { CircuitInput } from './circuit-inputs.js';
import type { Groth16Proof } from './proof.js';

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

  /** Proves one witness input; calls are serialised (one proof at a time uses both cores). */
  prove(input: CircuitInput, options: { timeoutMs?: number } = {}): Promise<ProofResult> {
    const run = this.queue.then(() => this.proveNow(input, options.timeoutMs ?? this.timeoutMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' });
    const timer = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timer);
  }

  private startWorker(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(workerUrl, { workerData: this.artifacts });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (msg: WorkerReply) => {
        if (msg.type !== 'ready') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    worker.once('exit', () => {
      if (this.worker === worker) {
        this.worker = null;
        this.ready = null;
      }
    });
    this.ready.catch(() => this.discardWorker(worker));
    return this.ready;
  }

  private discardWorker(worker: Worker): void {
    if (this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
    void worker.terminate();
  }

  private async proveNow(input: CircuitInput, timeoutMs: number): Promise<ProofResult> {
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProverTimeoutError()), timeoutMs);
    });
    try {
      await Promise.race([this.startWorker(), timeout]);
      const worker = this.worker!;
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
          reject(err);
        };
        const onExit = () => {
          cleanup();
          reject(new Error('Prover worker exited'));
        };
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
      });
      worker.postMessage({ id, input });
      return await Promise.race([result, timeout]);
    } catch (err) {
      // On timeout the worker may still be busy: terminate it so the CPU is freed at once.
      if (err instanceof ProverTimeoutError || Date.now() >= deadline) {
        if (this.worker) this.discardWorker(this.worker);
        throw new ProverTimeoutError();
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
