// Runs long read queries (exports, unpaged lists) on a read-only connection of its own to the
// server's SQLite file, so the API's thread never waits for them: WAL lets this connection read a
// committed snapshot while the server writes. It runs only the SQL and parameters it is handed
// (built by the server for the entity the route resolved) and cannot write (read-only).
// Rows go back in chunks, the next one only when the server asks for it: the server then handles
// each chunk in its own turn, between other requests. Plain JS so it loads the same way under
// node, tsx, vitest and a bundled app; the protocol's types live in read-pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// The server's own SQL functions that read queries use (server/db/open.ts).
db.function('unicode_lower', { deterministic: true }, (s) => (typeof s === 'string' ? s.toLowerCase() : s));

/** Prepared statements by SQL text; a list's query has a few shapes, an export one. */
const statements = new Map();
const MAX_STATEMENTS = 64;

function statementFor(sql) {
  let st = statements.get(sql);
  if (!st) {
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    st = db.prepare(sql);
    statements.set(sql, st);
  }
  return st;
}

/** The job being read: { id, rows (iterator), chunkRows }; one at a time per worker. */
let current = null;

function fail(id, err) {
  current = null;
  parentPort.postMessage({ id, error: String(err?.message ?? err) });
}

function sendChunk() {
  const job = current;
  if (!job) return;
  try {
    const rows = [];
    let done = false;
    while (rows.length < job.chunkRows) {
      const next = job.rows.next();
      if (next.done) {
        done = true;
        break;
      }
      rows.push(next.value);
    }
    if (done) current = null;
    parentPort.postMessage({ id: job.id, rows, done });
  } catch (err) {
    fail(job.id, err);
  }
}

const isOverflow = (err) => /integer overflow/i.test(String(err?.message));

/**
 * Several statements read in one transaction (one snapshot), each one's rows in order. A step
 * with `onOverflow` runs that SQL instead when its own raises SQLite's integer overflow (sum()).
 */
function runBatch(msg) {
  const run = (sql, params) => statementFor(sql).raw(false).safeIntegers(Boolean(msg.safeIntegers)).all(...params);
  const results = db.transaction(() =>
    msg.steps.map((step) => {
      try {
        return run(step.sql, step.params);
      } catch (err) {
        if (!step.onOverflow || !isOverflow(err)) throw err;
        return run(step.onOverflow, step.params);
      }
    }),
  )();
  parentPort.postMessage({ id: msg.id, rows: results, done: true });
}

/** SQLite's integrity check of another file (a backup's copy), on a read-only connection opened for it. */
function checkIntegrity(msg) {
  const other = new Database(msg.file, { readonly: true, fileMustExist: true });
  try {
    const rows = other.prepare('PRAGMA integrity_check').pluck().all();
    parentPort.postMessage({ id: msg.id, rows, done: true });
  } finally {
    other.close();
  }
}

parentPort.on('message', (msg) => {
  if (msg.type === 'integrity') {
    try {
      checkIntegrity(msg);
    } catch (err) {
      fail(msg.id, err);
    }
  } else if (msg.type === 'batch') {
    try {
      runBatch(msg);
    } catch (err) {
      fail(msg.id, err);
    }
  } else if (msg.type === 'run') {
    try {
      const st = statementFor(msg.sql).safeIntegers(false).raw(Boolean(msg.raw));
      current = { id: msg.id, rows: st.iterate(...msg.params), chunkRows: msg.chunkRows };
    } catch (err) {
      fail(msg.id, err);
      return;
    }
    sendChunk();
  } else if (msg.type === 'more' && current?.id === msg.id) {
    sendChunk();
  } else if (msg.type === 'cancel' && current?.id === msg.id) {
    // Ends the statement (and its read transaction) early.
    current.rows.return?.();
    current = null;
  }
});
