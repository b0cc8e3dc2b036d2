// "Update required": when the hosted instance needs a newer Bureau, this device must not write
// the entity's synced data (its changes could never be accepted, and would diverge from what
// newer devices write). Every write to a synced table of such an entity is refused with 423 —
// whichever route, import or background job makes it — while reading goes on.
import type Database from 'better-sqlite3';
import { HttpError } from '../http/errors.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { quoteIdent as q } from '../db/quote.js';

export const UPDATE_REQUIRED = 'Update required: the hosted instance this entity syncs with needs a newer version of Bureau; its data is read-only on this device until you update';

/**
 * TEMP triggers (this connection only, so tools and other connections opening the database are
 * not affected) call `sync_guard_write`, which throws the HTTP error the request answers with.
 * They exist only while some entity is read-only: every other write pays nothing for them.
 */
export function createReadOnlyGuard(sqlite: Database.Database, tables: SyncedTable[]) {
  let readOnly = new Set<string>();
  sqlite.function('sync_guard_write', { deterministic: false, directOnly: false }, (entityId: unknown) => {
    if (typeof entityId === 'string' && readOnly.has(entityId)) throw new HttpError(423, UPDATE_REQUIRED);
    return 0;
  });
  const triggers = tables.flatMap((table) =>
    (
      [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ] as const
    ).map(([event, ref]) => ({ name: q(`sync_guard_${table.name}_${event.toLowerCase()}`), sql: `BEFORE ${event} ON main.${q(table.name)} WHEN sync_guard_write(${ref}.entity_id)` })),
  );
  let installed = false;
  return {
    /** The entities whose synced data is read-only now. */
    set(entityIds: Iterable<string>) {
      readOnly = new Set(entityIds);
      const wanted = readOnly.size > 0;
      if (wanted === installed) return;
      sqlite.transaction(() => {
        for (const t of triggers) {
          sqlite.exec(`DROP TRIGGER IF EXISTS temp.${t.name}`);
          if (wanted) sqlite.exec(`CREATE TEMP TRIGGER ${t.name} ${t.sql} BEGIN SELECT 1; END`);
        }
      })();
      installed = wanted;
    },
  };
}
