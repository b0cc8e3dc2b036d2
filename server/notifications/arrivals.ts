// Notifications and read marks that arrive from other devices by sync, announced to the open
// streams of this device (local ones reach them through the outbox's live listeners).
import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { LoggedChange } from '../kernel/module.js';
import { notifications } from './tables.js';

export type Arrival = { kind: 'notification'; notification: typeof notifications.$inferSelect } | { kind: 'read'; entityId: string; userId: string };
type Listener = (arrival: Arrival) => void;

const listeners = new WeakMap<Context, Set<Listener>>();

export function onArrival(ctx: Context, listener: Listener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

function emit(ctx: Context, arrival: Arrival) {
  for (const l of listeners.get(ctx) ?? []) {
    try {
      l(arrival);
    } catch {
      // a broken stream must not stop the others
    }
  }
}

/** The reader in a read mark's row id, `["<notification id>","<user id>"]`. */
function readerOf(rowId: string): string | null {
  try {
    const key = JSON.parse(rowId) as unknown;
    return Array.isArray(key) && typeof key[1] === 'string' ? key[1] : null;
  } catch {
    return null;
  }
}

/** Module hook (`onApplied`): a notification's first change carries its title (later ones, if any, do not announce it again). */
export function announceArrivals(ctx: Context, entityId: string, changes: LoggedChange[]): void {
  if (!listeners.get(ctx)?.size) return;
  const created = changes.filter((c) => c.table === 'notifications' && 'title' in c.columns).map((c) => c.rowId);
  if (created.length) {
    const rows = ctx.db.select().from(notifications).where(and(eq(notifications.entityId, entityId), inArray(notifications.id, created))).all();
    for (const notification of rows) emit(ctx, { kind: 'notification', notification });
  }
  const readers = new Set(changes.filter((c) => c.table === 'notification_reads').map((c) => readerOf(c.rowId)).filter((u): u is string => u !== null));
  for (const userId of readers) emit(ctx, { kind: 'read', entityId, userId });
}
