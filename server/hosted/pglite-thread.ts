// The API thread's side of pglite-worker.mjs: the part of PGlite's interface drizzle uses (query,
// exec, transaction, close), each call a message to the thread that runs PGlite. A transaction
// stays open in the worker between its statements, as it would on a PostgreSQL connection, and
// PGlite's own lock makes statements outside it wait. Limits: one PGlite per data dir (the worker
// is its only user), parsers only as drizzle passes them (keep a type as text).
import { Worker } from 'node:worker_threads';
import type { Results, QueryOptions } from '@electric-sql/pglite';
import { ServiceUnavailableError } from '../http/errors.js';

/** Statements from outside the thread wait at most this long for the worker (a lost worker, not a slow query). */
const ANSWER_TIMEOUT_MS = 10 * 60_000;
/** At most this many statements in flight: beyond it the caller is told the store is busy (503). */
const MAX_PENDING = 10_000;

type Op = { op: 'query'; sql: string; params?: unknown[]; options?: WireOptions } | { op: 'exec'; sql: string; options?: WireOptions } | { op: 'begin' } | { op: 'end'; commit: boolean } | { op: 'close' };
type WireOptions = { rowMode?: 'array' | 'object'; textTypes?: number[] };
type WireError = { name: string; message: string; fields: Record<string, unknown> };
type Reply = { id: number; result?: unknown; error?: WireError } | { ready: boolean; error?: WireError };

/** The PGlite methods drizzle calls, on a transaction as on the database. */
export interface PgliteQueryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(fn: (tx: PgliteQueryable) => Promise<T>): Promise<T>;
}

export interface PgliteThread extends PgliteQueryable {
  close(): Promise<void>;
}

/** An error as PGlite threw it in the worker: same name (RuntimeError for an abort), message and PostgreSQL fields. */
function rebuild(wire: WireError): Error {
  const err = new Error(wire.message);
  err.name = wire.name;
  return Object.assign(err, wire.fields);
}

/** Drizzle's parsers keep timestamps, dates and intervals as text (identity functions): they cross as type ids. */
function wireOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  const textTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
  return { ...(options.rowMode ? { rowMode: options.rowMode } : {}), ...(textTypes ? { textTypes } : {}) };
}

export async function openPgliteThread(dir: string): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dir }, execArgv: [] });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let lost: Error | null = null;

  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', (msg: Reply) => {
      if ('ready' in msg && msg.ready) resolve();
      else reject(rebuild(('error' in msg && msg.error) || { name: 'Error', message: 'PGlite did not start', fields: {} }));
    });
    // A worker that fails before it is ready (its module did not load) answers nothing: the start fails instead of waiting.
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The database thread ended before it was ready (exit ${code})`)));
  });
  /** The statement's caller, no longer waiting; an idle worker never keeps the process alive. */
  const settle = (id: number) => {
    const call = pending.get(id);
    if (!call) return null;
    pending.delete(id);
    clearTimeout(call.timer);
    if (pending.size === 0) worker.unref();
    return call;
  };
  worker.on('message', (msg: Reply) => {
    if (!('id' in msg)) return;
    const call = settle(msg.id);
    if (!call) return;
    if (msg.error) call.reject(rebuild(msg.error));
    else call.resolve(msg.result);
  });
  const fail = (err: Error) => {
    lost = err;
    for (const call of pending.values()) {
      clearTimeout(call.timer);
      call.reject(err);
    }
    pending.clear();
  };
  // A worker that dies took PGlite with it: every caller gets an error the hosted context treats as fatal.
  worker.on('error', (err) => fail(Object.assign(new Error(`Aborted: the database thread failed (${err.message})`), { name: 'RuntimeError' })));
  worker.on('exit', (code) => fail(Object.assign(new Error(`Aborted: the database thread ended (exit ${code})`), { name: 'RuntimeError' })));
  await ready;
  worker.unref();

  const call = <T>(op: Op, txId?: number): Promise<T> => {
    if (lost) return Promise.reject(lost);
    if (pending.size >= MAX_PENDING) return Promise.reject(new ServiceUnavailableError('Too many database statements waiting: retry', 1));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => settle(id)?.reject(new Error('The database thread did not answer')), ANSWER_TIMEOUT_MS);
      timer.unref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      // Held while a statement is in flight: a script awaiting the database keeps the process up.
      worker.ref();
      worker.postMessage({ id, txId, ...op });
    });
  };

  const queryable = (txId?: number): PgliteQueryable => ({
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) => call<Results<T>>({ op: 'query', sql, params, options: wireOptions(options) }, txId),
    exec: (sql: string, options?: QueryOptions) => call<Results[]>({ op: 'exec', sql, options: wireOptions(options) }, txId),
    async transaction<T>(fn: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
      // Drizzle nests with savepoints on the transaction itself; a second BEGIN here would wait for ever.
      if (txId !== undefined) return fn(queryable(txId));
      const id = await call<number>({ op: 'begin' });
      let result: T;
      try {
        result = await fn(queryable(id));
      } catch (err) {
        await call({ op: 'end', commit: false }, id).catch(() => undefined);
        throw err;
      }
      await call({ op: 'end', commit: true }, id);
      return result;
    },
  });

  return {
    ...queryable(),
    async close() {
      if (!lost) await call({ op: 'close' }).catch(() => undefined);
      await worker.terminate();
    },
  };
}
