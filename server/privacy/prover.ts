// On-device JoinSplit prover in a separate process (see prover-worker.mjs for why not a
// worker_thread): proving never blocks the event loop and uses both cores, the process stays warm
// between proofs, and a proof that exceeds the timeout kills it by pid (the next proof starts a
// fresh one).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

const workerPath = fileURLToPath(new URL('./prover-worker.mjs', import.meta.url));

export class JoinSplitProver {
  private worker: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly artifacts: Pick<CircuitArtifacts, 'wasmPath' | 'zkeyPath'>;
  readonly timeoutMs: number;

  constructor(options: ProverOptions = {}) {
    this.artifacts = options.artifacts ?? defaultCircuitArtifacts();
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  /** The worker's pid while one is running (tests check it is gone after a timeout). */
  get pid(): number | undefined {
    return this.worker?.pid;
  }

  /** Starts the worker ahead of the first proof (loads the artifacts, builds the curve). */
  async start(): Promise<void> {
    await this.startWorker();
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
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    if (worker.connected) worker.send({ type: 'close' });
    const timer = setTimeout(() => worker.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private startWorker(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = fork(workerPath, [], {
      // ELECTRON_RUN_AS_NODE: inside Electron, process.execPath is the app binary; run it as Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BUREAU_PROVER_WASM: this.artifacts.wasmPath, BUREAU_PROVER_ZKEY: this.artifacts.zkeyPath },
      // Plain node: no loaders from the parent (tsx, vitest) are needed for the .mjs worker.
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (msg: WorkerReply) => {
        if (msg.type !== 'ready') return;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve();
      };
      const onExit = (code: number | null) => reject(new Error(`Prover worker exited during start (code ${code})`));
      worker.on('message', onMessage);
      worker.once('exit', onExit);
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

  private discardWorker(worker: ChildProcess): void {
    if (this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
    worker.kill('SIGKILL');
  }

  private async proveNow(input: CircuitInput, timeoutMs: number): Promise<ProofResult> {
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
        const onExit = () => {
          cleanup();
          reject(new Error('Prover worker exited'));
        };
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.once('exit', onExit);
      });
      worker.send({ id, input });
      return await Promise.race([result, timeout]);
    } catch (err) {
      // On timeout the worker may still be busy: kill it so the CPU is freed at once.
      if (err instanceof ProverTimeoutError && this.worker) this.discardWorker(this.worker);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
