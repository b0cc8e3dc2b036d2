// Change groups: the changes one local transaction captured travel together and the hosted
// instance accepts or refuses them together. A refused group that carried a guarded transition
// lost a race (another device moved the row first): it is undone here, so this device takes the
// hosted instance's state again instead of keeping books that exist nowhere else.
import { and, asc, eq, getTableName, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Capture } from './capture.js';
import { DELETED } from './capture.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { syncChanges, syncLinks, syncStamps } from './tables.js';
import { entityEvents } from '../events/tables.js';
import { quoteIdent as q } from '../db/quote.js';

/**
 * Each outermost write (`write(ctx, …)`, server/db/write.ts) starts a new group. (Transactions
 * here are synchronous; capture also ends a group when control returns to the event loop, for
 * writes made without it.)
 */
export function groupWrites(ctx: Context, capture: Capture): void {
  ctx.unitOfWork.setHooks({ begin: () => capture.beginGroup(), end: () => capture.endGroup() });
}

/**
 * Undoes refused groups of this device: rows a group created are deleted, and the columns it
 * set forget their local stamps; the log is then replayed from the start, so every row it
 * touched takes the values the hosted instance holds. Returns the changes undone.
 */
export function undoRefusedGroups(ctx: Context, capture: Capture, tables: SyncedTable[], entityId: string, groupIds: string[]): number {
  if (groupIds.length === 0) return 0;
  const byName = new Map(tables.map((t) => [t.name, t]));
  return write(ctx, (tx) => {
    const undone = tx
      .select()
      .from(syncChanges)
      .where(and(eq(syncChanges.entityId, entityId), inArray(syncChanges.groupId, groupIds)))
      .orderBy(asc(syncChanges.localSeq))
      .all()
      .reverse();
    capture.undoingRefused(() => {
      ctx.sqlite.pragma('defer_foreign_keys = ON');
      for (const change of undone) {
        const table = byName.get(change.tableName);
        if (!table) continue;
        if (change.inserted) {
          const key = table.primaryKey.length === 1 ? [change.rowId] : (JSON.parse(change.rowId) as unknown[]);
          ctx.sqlite.prepare(`DELETE FROM ${q(table.name)} WHERE ${table.primaryKey.map((c) => `${q(c)} = ?`).join(' AND ')} AND entity_id = ?`).run(...(key as never[]), entityId);
          tx.delete(syncStamps).where(and(eq(syncStamps.tableName, change.tableName), eq(syncStamps.rowId, change.rowId))).run();
        } else {
          const columns = [...Object.keys(JSON.parse(change.columns) as Record<string, unknown>), DELETED];
          tx.delete(syncStamps).where(and(eq(syncStamps.tableName, change.tableName), eq(syncStamps.rowId, change.rowId), inArray(syncStamps.column, columns))).run();
        }
      }
    });
    tx.update(syncChanges).set({ revertedAt: nowIso(ctx) }).where(and(eq(syncChanges.entityId, entityId), inArray(syncChanges.groupId, groupIds))).run();
    // Told once, here: the owners and admins of this device learn that a decision made here did not stand.
    const reasons = [...new Set(undone.map((c) => c.reason).filter((r): r is string => Boolean(r) && !r!.startsWith('Refused with its group')))];
    // The events that travelled with the change are sync's bookkeeping, not something a person changed.
    const tables = [...new Set(undone.map((c) => c.tableName))].filter((t) => t !== getTableName(entityEvents));
    // About this device only: it does not travel (and is not recorded while healing from the log).
    ctx.events.record(tx, { entityId, type: 'sync.changes_undone', data: { groups: groupIds.length, changes: undone.length, tables, reasons } }, { local: true });
    // Replayed from the start: the rows this device gave up take the hosted state again.
    tx.update(syncLinks).set({ cursor: 0, needsSnapshot: true }).where(eq(syncLinks.entityId, entityId)).run();
    return undone.length;
  });
}
