// Recomputing the maintained totals (ledger_balances, ledger_day_totals, ledger_day_entries) from the journal: the
// same sums the triggers keep, started over. For a repair, or a check (`npm run ledger:rebuild`).
import type { Database } from 'better-sqlite3';

const E18 = '1000000000000000000';
// An amount's three base-10^18 limbs, from its decimal text left-padded to 54 digits.
const padded = `substr('${'0'.repeat(54)}' || l.amount, -54)`;
const limbs = [37, 19, 1].map((at) => `cast(substr(${padded}, ${at}, 18) as integer)`).join(', ');
// Added line by line with the carries, as the triggers add them (a SQL sum() of limbs could overflow).
const carry = `ON CONFLICT DO UPDATE SET lines = lines + excluded.lines, lo = (lo + excluded.lo) % ${E18},
  mid = (mid + excluded.mid + (lo + excluded.lo) / ${E18}) % ${E18},
  hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / ${E18}) / ${E18}`;
const scope = `FROM ledger_lines l, ledger_entries e WHERE e.id = l.entry_id AND (@entityId IS NULL OR l.entity_id = @entityId)`;

/**
 * Deletes the totals of one entity (or of all) and sums them again from its lines, in one
 * transaction. Returns how many lines were summed.
 */
export function rebuildBalances(sqlite: Database, entityId: string | null = null): number {
  return sqlite.transaction(() => {
    const p = { entityId };
    sqlite.prepare('DELETE FROM ledger_balances WHERE @entityId IS NULL OR entity_id = @entityId').run(p);
    sqlite.prepare('DELETE FROM ledger_day_totals WHERE @entityId IS NULL OR entity_id = @entityId').run(p);
    const n = sqlite
      .prepare(`INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi) SELECT l.entity_id, l.account_id, l.currency, l.side, 1, ${limbs} ${scope} ${carry}`)
      .run(p).changes;
    sqlite
      .prepare(`INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi) SELECT l.entity_id, substr(e.effective_at, 1, 10), l.account_id, l.currency, l.side, 1, ${limbs} ${scope} ${carry}`)
      .run(p);
    sqlite.prepare('DELETE FROM ledger_day_entries WHERE @entityId IS NULL OR entity_id = @entityId').run(p);
    sqlite
      .prepare(
        `INSERT INTO ledger_day_entries (entity_id, day, entries) SELECT entity_id, substr(effective_at, 1, 10), count(*) FROM ledger_entries
         WHERE @entityId IS NULL OR entity_id = @entityId GROUP BY entity_id, substr(effective_at, 1, 10)`,
      )
      .run(p);
    return n;
  })();
}
