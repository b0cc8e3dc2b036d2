// The hosted instance's PGlite, in a thread of its own. PGlite runs PostgreSQL in WebAssembly with
// synchronous file I/O: on the API's thread a large read (a joining device's snapshot) held the
// event loop for up to 2 s. Here it holds only this thread; the API's thread waits for answers
// asynchronously, as it does for PostgreSQL over a socket. The protocol's types and the client
// drizzle talks to are in pglite-thread.ts. Plain JS so it loads the same way under node, tsx,
// vitest and a bundled app.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = new PGlite(workerData.dir);

/** Open transactions by id: the PGlite transaction handle and how to end it. */
const transactions = new Map();
let nextTx = 1;

/** What the API's thread needs of an error: its kind, PostgreSQL's fields (code, constraint…). */
function errorOf(err) {
  const e = err ?? {};
  const fields = {};
  for (const key of ['code', 'severity', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'position', 'where']) {
    if (e[key] !== undefined) fields[key] = e[key];
  }
  return { name: e.name ?? 'Error', message: String(e.message ?? e), fields };
}

/** Drizzle hands PGlite parsers that keep some types as text; functions cannot cross threads, so they come as type ids. */
function queryOptions(options) {
  if (!options) return undefined;
  const { rowMode, textTypes } = options;
  const parsers = textTypes ? Object.fromEntries(textTypes.map((t) => [t, (value) => value])) : undefined;
  return { ...(rowMode ? { rowMode } : {}), ...(parsers ? { parsers } : {}) };
}

function target(txId) {
  if (txId === undefined) return db;
  const tx = transactions.get(txId);
  if (!tx) throw new Error('Transaction is not open');
  return tx.handle;
}

/** Opens a transaction and answers once inside it; it stays open (PGlite's lock held) until `end`. */
function begin() {
  const id = nextTx++;
  return new Promise((resolve, reject) => {
    const entry = { handle: null, commit: null, rollback: null, done: null };
    entry.done = db.transaction(
      (handle) =>
        new Promise((commit, rollback) => {
          Object.assign(entry, { handle, commit, rollback });
          transactions.set(id, entry);
          resolve(id);
        }),
    );
    // BEGIN failing rejects here; afterwards `end` reports the outcome (resolve/reject are then no-ops).
    entry.done.catch(reject);
  });
}

async function end(txId, commit) {
  const tx = transactions.get(txId);
  if (!tx) throw new Error('Transaction is not open');
  transactions.delete(txId);
  if (commit) tx.commit();
  else tx.rollback(new Error('rolled back'));
  try {
    await tx.done;
  } catch (err) {
    if (commit) throw err;
  }
  return null;
}

async function handle(msg) {
  switch (msg.op) {
    case 'query':
      return target(msg.txId).query(msg.sql, msg.params, queryOptions(msg.options));
    case 'exec':
      return target(msg.txId).exec(msg.sql, queryOptions(msg.options));
    case 'begin':
      return begin();
    case 'end':
      return end(msg.txId, msg.commit);
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`Unknown operation ${msg.op}`);
  }
}

parentPort.on('message', (msg) => {
  handle(msg).then(
    (result) => parentPort.postMessage({ id: msg.id, result }),
    (err) => parentPort.postMessage({ id: msg.id, error: errorOf(err) }),
  );
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (err) => parentPort.postMessage({ ready: false, error: errorOf(err) }),
);
