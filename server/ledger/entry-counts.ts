// The journal's entry count from the per-day counts (ledger_day_entries, kept by triggers):
// whole days summed, the partial days at the ends counted on the entries' (entity, date) index.
import type { Database, Statement } from 'better-sqlite3';
import type { Queryable } from '../db/tx.js';

/** Above every effective date that starts with a given day (the largest code point). */
const DAY_END = '\u{10FFFF}';

function prepare(sqlite: Database) {
  return {
    days: sqlite.prepare('select coalesce(sum(entries), 0) as n from ledger_day_entries where entity_id = ? and day > ? and day < ?') as Statement<[string, string, string], { n: number }>,
    between: sqlite.prepare('select count(*) as n from ledger_entries where entity_id = ? and effective_at >= ? and effective_at <= ?') as Statement<[string, string, string], { n: number }>,
  };
}

const cache = new WeakMap<Database, ReturnType<typeof prepare>>();

/** How many entries of the entity are dated in [from, to] (either end open when absent). */
export function countEntries(db: Queryable, entityId: string, from?: string, to?: string): number {
  const sqlite = (db as unknown as { session: { client: Database } }).session.client;
  let st = cache.get(sqlite);
  if (!st) cache.set(sqlite, (st = prepare(sqlite)));
  if (from !== undefined && to !== undefined && from > to) return 0;
  const [first, last] = [from?.slice(0, 10), to?.slice(0, 10)];
  if (first !== undefined && first === last) return st.between.get(entityId, from!, to!)!.n;
  let n = st.days.get(entityId, first ?? '', last ?? DAY_END)!.n;
  if (first !== undefined) n += st.between.get(entityId, from!, first + DAY_END)!.n;
  if (last !== undefined) n += st.between.get(entityId, last, to!)!.n;
  return n;
}
