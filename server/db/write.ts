// The one way writes run: `write(ctx, (tx) => …)` opens the transaction (a savepoint inside one
// already open) and tells whoever listens where each outermost write begins and ends — sync makes
// the changes of one write one change group. The kernel knows nothing of sync: sync sets the hooks.
import type Database from 'better-sqlite3';
import type { Db } from './open.js';
import type { Tx } from './tx.js';

/** Called around each outermost write (and at `split`), synchronously. */
export interface WriteHooks {
  begin(): void;
  end(): void;
}

export interface UnitOfWork {
  /** Runs `fn` in one synchronous transaction; nested in an open one, it joins it. */
  run<T>(fn: (tx: Tx) => T): T;
  /**
   * Starts a new group inside the write in progress: each event of a ledger group commit
   * travels alone, as it would with a transaction of its own.
   */
  split(): void;
  /** Set by sync at its start (null: nobody listens). */
  setHooks(hooks: WriteHooks | null): void;
}

export function createUnitOfWork(db: Db, sqlite: Database.Database): UnitOfWork {
  let hooks: WriteHooks | null = null;
  return {
    run(fn) {
      if (!hooks || sqlite.inTransaction) return db.transaction(fn);
      const h = hooks;
      h.begin();
      try {
        return db.transaction(fn);
      } finally {
        h.end();
      }
    },
    split() {
      hooks?.begin();
    },
    setHooks(h) {
      hooks = h;
    },
  };
}

/** Runs one write of a use case: `write(ctx, (tx) => …)`. */
export function write<T>(ctx: { unitOfWork: UnitOfWork }, fn: (tx: Tx) => T): T {
  return ctx.unitOfWork.run(fn);
}
