// Long reads (the journal's CSV export, the unpaged ticket and document lists) run in a small pool of worker
// threads, each with its own read-only connection to the database file (read-worker.mjs), so
// better-sqlite3's synchronous calls never hold up the other requests. The pool is bounded: past
// `maxWaiting` queued reads it answers 503 with Retry-After instead of piling work up. Rows come
// back in chunks, each handled in its own turn of the event loop.
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ServiceUnavailableError } from '../http/errors.js';

/** SQL and its parameters, built by the caller for the entity its route resolved. */
export interface ReadQuery {
  sql: string;
  params: unknown[];
  /** Rows as arrays of column values (in the select's order) instead of objects. */
  raw?: boolean;
}

/** One statement of a batch; `onOverflow` is read instead when its sum() overflows SQLite's integers. */
export interface BatchStep {
  sql: string;
  params: unknown[];
  onOverflow?: string;
}

/** Statements read together in one transaction (one snapshot); integers as BigInt with `safeIntegers`. */
export interface ReadBatch {
  steps: BatchStep[];
  safeIntegers?: boolean;
}

/** `PRAGMA integrity_check` of another database file (a backup's copy), opened read-only by the worker. */
export interface IntegrityCheck {
  integrityOf: string;
}

export interface ReadPoolOptions {
  /** The database file (read-only connections to it). */
  file: string;
  /** Worker threads (default 1: the API's thread and one reader fit two cores). */
  size?: number;
  /** Reads that may wait for a worker; one more → 503. */
  maxWaiting?: number;
  /** Rows per chunk handed to `onRows`. */
  chunkRows?: number;
  /** A read known to return at most this many rows runs on the caller's connection: a worker's round trip costs more than it (default 500). */
  inlineRows?: number;
  /** The worker's entry (tests give one that fails). */
  workerUrl?: URL;
  /** The entry of the short-lived workers that read another database file (`withFileReader`; tests give one that waits). */
  fileWorkerUrl?: URL;
}

type Reply = { id: number; rows: unknown[]; done: boolean } | { id: number; error: string };

interface Job {
  id: number;
  query: ReadQuery | ReadBatch | IntegrityCheck;
  onRows: (rows: unknown[]) => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
}

const defaultWorkerUrl = new URL('./read-worker.mjs', import.meta.url);
const RETRY_AFTER_SECONDS = 2;

/** What a route that reads in the pool documents for 503. */
export const LONG_READ_BUSY_DOC = 'Too many long reads (reports, exports) are waiting, or the read worker stopped: retry (after `Retry-After` seconds when given)';

export class ReadPool {
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** The short-lived readers of other files now running (`withFileReader`). */
  private readonly fileReaders = new Set<ReadPool>();
  private readonly maxWaiting: number;
  private readonly chunkRows: number;
  /** See ReadPoolOptions.inlineRows. */
  readonly inlineRows: number;

  constructor(private readonly options: ReadPoolOptions) {
    this.slots = Array.from({ length: options.size ?? 1 }, () => ({ worker: null, job: null }));
    // Enough for a client (the UI, an integration) asking many lists at once; past it, 503 with Retry-After.
    this.maxWaiting = options.maxWaiting ?? 64;
    this.chunkRows = options.chunkRows ?? 2000;
    this.inlineRows = options.inlineRows ?? 500;
  }

  /** Reads currently running in a worker, and queued. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.filter((s) => s.job).length, waiting: this.waiting.length };
  }

  /** Reads of other files (a backup's copy) now running in their own workers. */
  get fileReads(): number {
    return [...this.fileReaders].filter((r) => r.load.running > 0).length;
  }

  /**
   * Reads of another database file (a backup's copy: its integrity check, its counts) in a worker
   * started for them and ended after, never in the API's: a check that takes seconds on a large
   * file does not queue the unpaged lists and exports behind it.
   */
  async withFileReader<T>(file: string, use: (reader: ReadPool) => Promise<T>): Promise<T> {
    if (this.closed) throw new ServiceUnavailableError('The server is stopping');
    const reader = new ReadPool({ file, size: 1, maxWaiting: 0, workerUrl: this.options.fileWorkerUrl });
    this.fileReaders.add(reader);
    try {
      return await use(reader);
    } finally {
      this.fileReaders.delete(reader);
      await reader.close();
    }
  }

  /** Runs the query in a worker; `onRows` gets its rows a chunk at a time, in order (a batch: every step's rows at once). */
  read(query: ReadQuery | ReadBatch | IntegrityCheck, onRows: (rows: unknown[]) => void): Promise<void> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('The server is stopping'));
    const free = this.slots.find((s) => !s.job);
    if (!free && this.waiting.length >= this.maxWaiting) {
      return Promise.reject(new ServiceUnavailableError('Too many long reads (reports, exports) are running; try again shortly', RETRY_AFTER_SECONDS));
    }
    return new Promise<void>((resolve, reject) => {
      const job: Job = { id: this.nextId++, query, onRows, resolve, reject };
      if (free) this.start(free, job);
      else this.waiting.push(job);
    });
  }

  /** Refuses what waits, ends the workers; resolves once they have exited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new ServiceUnavailableError('The server is stopping'));
    await Promise.all([
      ...[...this.fileReaders].map((r) => r.close()),
      ...this.slots.map((slot) => {
        const { worker, job } = slot;
        slot.worker = null;
        slot.job = null;
        job?.reject(new ServiceUnavailableError('The server is stopping'));
        return worker?.terminate();
      }),
    ]);
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    const worker = slot.worker ?? this.spawn(slot);
    const q = job.query;
    if ('integrityOf' in q) worker.postMessage({ type: 'integrity', id: job.id, file: q.integrityOf });
    else if ('steps' in q) worker.postMessage({ type: 'batch', id: job.id, steps: q.steps, safeIntegers: q.safeIntegers ?? false });
    else worker.postMessage({ type: 'run', id: job.id, sql: q.sql, params: q.params, raw: q.raw ?? false, chunkRows: this.chunkRows });
  }

  private spawn(slot: Slot): Worker {
    // Plain ESM: no loaders from the parent (tsx, vitest) are needed for the .mjs worker.
    const worker = new Worker(this.options.workerUrl ?? defaultWorkerUrl, { workerData: { file: this.options.file }, execArgv: [] });
    slot.worker = worker;
    // An idle reader never keeps the process alive.
    worker.unref();
    worker.on('message', (msg: Reply) => this.onReply(slot, msg));
    const lost = (reason: string) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      void worker.terminate();
      const job = slot.job;
      slot.job = null;
      // Not the caller's fault and not lasting: the next read starts a new worker.
      job?.reject(new ServiceUnavailableError(`The read worker stopped (${reason}); try again`));
      this.next(slot);
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }

  private onReply(slot: Slot, msg: Reply): void {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    if ('error' in msg) return this.finish(slot, () => job.reject(new Error(msg.error)));
    try {
      job.onRows(msg.rows);
    } catch (err) {
      slot.worker?.postMessage({ type: 'cancel', id: job.id });
      return this.finish(slot, () => job.reject(err));
    }
    if (msg.done) return this.finish(slot, () => job.resolve());
    // The next chunk after other waiting work (requests) has had its turn.
    setImmediate(() => {
      if (slot.job === job) slot.worker?.postMessage({ type: 'more', id: job.id });
    });
  }

  private finish(slot: Slot, settle: () => void): void {
    slot.job = null;
    settle();
    this.next(slot);
  }

  private next(slot: Slot): void {
    const job = this.waiting.shift();
    if (job && !this.closed) this.start(slot, job);
  }
}

const pools = new WeakMap<Database.Database, ReadPool>();

/**
 * The read pool of this connection's database file, started on first use; null for an in-memory
 * database (no file another connection could open), where reads run on the connection itself.
 */
export function readPool(ctx: { sqlite: Database.Database }): ReadPool | null {
  if (ctx.sqlite.memory) return null;
  let pool = pools.get(ctx.sqlite);
  if (!pool) pools.set(ctx.sqlite, (pool = new ReadPool({ file: ctx.sqlite.name })));
  return pool;
}

/** Runs a long read off the API's thread; `onRows` gets the rows a chunk at a time. */
export async function readInWorker(ctx: { sqlite: Database.Database }, query: ReadQuery, onRows: (rows: unknown[]) => void): Promise<void> {
  const pool = readPool(ctx);
  if (pool) return pool.read(query, onRows);
  onRows(ctx.sqlite.prepare(query.sql).raw(query.raw ?? false).all(...query.params));
}

/** Every row of a long read, read off the API's thread. */
export async function readAllInWorker<T>(ctx: { sqlite: Database.Database }, query: ReadQuery): Promise<T[]> {
  const all: T[] = [];
  await readInWorker(ctx, query, (rows) => {
    for (const r of rows) all.push(r as T);
  });
  return all;
}

const isOverflow = (err: unknown) => /integer overflow/i.test(String((err as Error).message));

/** Runs a batch here, on the connection itself, in one transaction (an in-memory database). */
function readBatchHere(sqlite: Database.Database, batch: ReadBatch): unknown[][] {
  const run = (sql: string, params: unknown[]) => sqlite.prepare(sql).safeIntegers(batch.safeIntegers ?? false).all(...params);
  return sqlite.transaction(() =>
    batch.steps.map((step) => {
      try {
        return run(step.sql, step.params);
      } catch (err) {
        if (!step.onOverflow || !isOverflow(err)) throw err;
        return run(step.onOverflow, step.params);
      }
    }),
  )();
}

/** Reads the statements of `batch` off the API's thread in one snapshot: each step's rows, in order. */
export async function readBatchInWorker(ctx: { sqlite: Database.Database }, batch: ReadBatch): Promise<unknown[][]> {
  const pool = readPool(ctx);
  if (!pool) return readBatchHere(ctx.sqlite, batch);
  let results: unknown[][] = [];
  await pool.read(batch, (rows) => {
    results = rows as unknown[][];
  });
  return results;
}

/** Reads of one database file (a backup's copy, which no write changes): batches, and SQLite's integrity check. */
export interface FileReader {
  batch(batch: ReadBatch): Promise<unknown[][]>;
  /** `PRAGMA integrity_check`: its problems joined by '; ', or 'ok'. */
  integrity(): Promise<string>;
}

/** The integrity check of the file open as `db`. */
function integrityHere(db: Database.Database): string {
  return (db.prepare('PRAGMA integrity_check').pluck().all() as string[]).join('; ');
}

/**
 * Reads the database file `file` (a backup's copy, not this connection's): in a worker of its own
 * beside the pool's (`ReadPool.withFileReader`), so its seconds-long checks and counts hold
 * neither the API's thread nor the API's read worker. Without a pool (`ctx` null: the CLI, which
 * has no requests to serve; an in-memory database), read by a connection opened here.
 */
export async function withFileReader<T>(ctx: { sqlite: Database.Database } | null, file: string, use: (reader: FileReader) => Promise<T>): Promise<T> {
  const pool = ctx ? readPool(ctx) : null;
  if (pool) {
    return pool.withFileReader(file, (worker) =>
      use({
        async batch(batch) {
          let results: unknown[][] = [];
          await worker.read(batch, (rows) => {
            results = rows as unknown[][];
          });
          return results;
        },
        async integrity() {
          let result = '';
          await worker.read({ integrityOf: file }, (rows) => {
            result = (rows as string[]).join('; ');
          });
          return result;
        },
      }),
    );
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return await use({ batch: async (batch) => readBatchHere(db, batch), integrity: async () => integrityHere(db) });
  } finally {
    db.close();
  }
}

/** Uses `pool` for this connection from now on (tests: a failing worker, a small queue); returns the one it replaces. */
export function replaceReadPool(ctx: { sqlite: Database.Database }, pool: ReadPool): ReadPool | undefined {
  const old = pools.get(ctx.sqlite);
  pools.set(ctx.sqlite, pool);
  return old;
}

/** Ends this connection's read workers (before the connection closes). */
export async function closeReadPool(ctx: { sqlite: Database.Database }): Promise<void> {
  const pool = pools.get(ctx.sqlite);
  pools.delete(ctx.sqlite);
  await pool?.close();
}
