import type { Context } from '../context.js';
import { MAX_CSV_LINES, exportJournalCsvNow } from '../ledger/index.js';
import { writePartFile, type ExportSnapshot, type PartFile } from './export-snapshot.js';

/** Journal lines formatted in one synchronous read: the longest the export holds the server for the journal. */
const PIECE_LINES = 5000;

/** Each journal line's effective time (ms), oldest first, read a slice at a time. */
async function lineTimes(snap: ExportSnapshot, entityId: string): Promise<Float64Array> {
  const st = snap.db
    .prepare(
      `SELECT e.effective_at FROM ledger_entries e JOIN ledger_events ev ON ev.id = e.event_id JOIN ledger_lines l ON l.entry_id = e.id
       JOIN ledger_accounts a ON a.id = l.account_id WHERE e.entity_id = ? ORDER BY e.effective_at`,
    )
    .pluck();
  let times = new Float64Array(1 << 16);
  let n = 0;
  for (const at of snap.rows<string>(st, [entityId])) {
    if (n === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[n++] = Date.parse(at);
    await snap.pace();
  }
  return times.subarray(0, n);
}

/** First index whose time is ≥ `t` (times sorted). */
function lowerBound(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The periods the journal is exported in, as the ledger's own limit decides: the whole range when
 * it holds at most MAX_CSV_LINES lines, else each half in turn (halving until each fits), the
 * files numbered in time order. Decided from the lines' times, without formatting any line.
 */
function periods(times: Float64Array, from: number, to: number): [number, number][] {
  const lines = lowerBound(times, to + 1) - lowerBound(times, from);
  // A single millisecond holding more lines than an export allows cannot be split: the export says so.
  if (lines <= MAX_CSV_LINES || to - from < 1) return [[from, to]];
  const mid = Math.floor((from + to) / 2);
  return [...periods(times, from, mid), ...periods(times, mid + 1, to)];
}

/**
 * One period's CSV, formatted PIECE_LINES lines at a time (cut between milliseconds, so each
 * piece's lines are contiguous in the journal's order): the bytes of the ledger's own export of
 * the period, with other requests answered between pieces.
 */
async function writePeriod(ctx: Context, snap: ExportSnapshot, entityId: string, times: Float64Array, [from, to]: [number, number], out: PartFile): Promise<void> {
  const here = { ...ctx, sqlite: snap.db };
  const end = lowerBound(times, to + 1);
  let pieceFrom = from;
  let first = true;
  for (let i = lowerBound(times, from); first || i < end; ) {
    let k = Math.min(i + PIECE_LINES, end) - 1;
    while (k + 1 < end && times[k + 1] === times[k]) k++;
    const pieceTo = k + 1 >= end ? to : times[k]!;
    const csv = exportJournalCsvNow(here, entityId, { from: new Date(pieceFrom).toISOString(), to: new Date(pieceTo).toISOString() });
    // Every piece's CSV starts with the header line: the file has it once.
    await out.write(first ? csv : csv.slice(csv.indexOf('\r\n') + 2));
    first = false;
    pieceFrom = pieceTo + 1;
    i = k + 1;
    await snap.pace();
  }
}

/** The journal's readable CSVs: `ledger/journal.csv`, or `ledger/journal-part-001.csv`… for a journal too long for one. */
export async function journalCsvs(ctx: Context, snap: ExportSnapshot, entityId: string, nextFile: () => string): Promise<{ name: string; part: { file: string; size: number; sha256: string } }[]> {
  const range = snap.db.prepare('SELECT min(effective_at) AS lo, max(effective_at) AS hi FROM ledger_entries WHERE entity_id = ?').get(entityId) as { lo: string | null; hi: string | null };
  if (!range.lo || !range.hi) {
    const csv = exportJournalCsvNow({ ...ctx, sqlite: snap.db }, entityId, {});
    return [{ name: 'ledger/journal.csv', part: await writePartFile(nextFile(), (out) => out.write(csv)) }];
  }
  const times = await lineTimes(snap, entityId);
  const list = periods(times, Date.parse(range.lo), Date.parse(range.hi));
  const files = [];
  for (const [i, period] of list.entries()) {
    const name = list.length === 1 ? 'ledger/journal.csv' : `ledger/journal-part-${String(i + 1).padStart(3, '0')}.csv`;
    files.push({ name, part: await writePartFile(nextFile(), (out) => writePeriod(ctx, snap, entityId, times, period, out)) });
  }
  return files;
}
