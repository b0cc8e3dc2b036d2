import type Database from 'better-sqlite3';

/**
 * Each synced cell's stamp on a device, as (row_id, column, hlc) sorted: a row-wide stamp
 * (`column = '*'`, written for rows taken whole from a snapshot) stands for every column of the
 * table without a stamp of its own — never for `_deleted`.
 */
export function cellStamps(sqlite: Database.Database, table: string): { row_id: string; column: string; hlc: string }[] {
  const columns = (sqlite.pragma(`table_info(${JSON.stringify(table)})`) as { name: string }[]).map((c) => c.name);
  const stamps = sqlite.prepare('SELECT row_id, "column", hlc FROM sync_stamps WHERE table_name = ?').all(table) as { row_id: string; column: string; hlc: string }[];
  const byRow = new Map<string, Map<string, string>>();
  for (const s of stamps) {
    if (!byRow.has(s.row_id)) byRow.set(s.row_id, new Map());
    byRow.get(s.row_id)!.set(s.column, s.hlc);
  }
  const cells: { row_id: string; column: string; hlc: string }[] = [];
  for (const [rowId, row] of byRow) {
    const whole = row.get('*');
    for (const [column, hlc] of row) if (column !== '*') cells.push({ row_id: rowId, column, hlc });
    if (whole) for (const column of columns) if (!row.has(column)) cells.push({ row_id: rowId, column, hlc: whole });
  }
  return cells.sort((a, b) => (a.row_id === b.row_id ? (a.column < b.column ? -1 : a.column > b.column ? 1 : 0) : a.row_id < b.row_id ? -1 : 1));
}
