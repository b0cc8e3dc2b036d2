import type Database from 'better-sqlite3';
import type { Context } from '../context.js';
import { PayloadTooLargeError } from '../http/errors.js';
import { csvField, exportJournalCsvNow } from '../ledger/index.js';
import { columnsOf } from './inspect.js';

/**
 * The human-readable half of a business export: the data usable without Bureau. A CSV per area
 * (raw columns, as stored) and every PDF under its folder path.
 */

export interface ReadableFile {
  name: string;
  data?: Buffer;
  /** A blob to copy (a PDF) rather than bytes in memory. */
  blob?: string;
}

/** Columns left out of the CSVs: search indexes and hashes of secrets are no reading matter. */
const OMIT = new Set(['search_text', 'token_hash', 'token_sealed', 'entity_id']);

function tableCsv(db: Database.Database, table: string, entityId: string, orderBy: string): Buffer {
  const cols = columnsOf(db, table)
    .map((c) => c.name)
    .filter((c) => !OMIT.has(c) && !c.endsWith('_sealed'));
  const rows = db
    .prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${table}" WHERE entity_id = ? ORDER BY ${orderBy}`)
    .raw()
    .all(entityId) as unknown[][];
  const lines = [cols.join(','), ...rows.map((r) => r.map((v) => csvField(v === null || v === undefined ? null : String(v))).join(','))];
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/**
 * The journal as the ledger exports it. One too long for a single export is split into periods
 * (halving the time range until each fits), numbered in time order.
 */
function journalCsvs(ctx: Context, entityId: string): ReadableFile[] {
  const range = ctx.sqlite.prepare('SELECT min(effective_at) AS lo, max(effective_at) AS hi FROM ledger_entries WHERE entity_id = ?').get(entityId) as { lo: string | null; hi: string | null };
  if (!range.lo || !range.hi) return [{ name: 'ledger/journal.csv', data: Buffer.from(exportJournalCsvNow(ctx, entityId, {})) }];
  const parts: string[] = [];
  const exportRange = (from: number, to: number): void => {
    try {
      parts.push(exportJournalCsvNow(ctx, entityId, { from: new Date(from).toISOString(), to: new Date(to).toISOString() }));
    } catch (err) {
      // A single millisecond holding more lines than an export allows cannot be split further.
      if (!(err instanceof PayloadTooLargeError) || to - from < 1) throw err;
      const mid = Math.floor((from + to) / 2);
      exportRange(from, mid);
      exportRange(mid + 1, to);
    }
  };
  exportRange(Date.parse(range.lo), Date.parse(range.hi));
  if (parts.length === 1) return [{ name: 'ledger/journal.csv', data: Buffer.from(parts[0]!) }];
  return parts.map((csv, i) => ({ name: `ledger/journal-part-${String(i + 1).padStart(3, '0')}.csv`, data: Buffer.from(csv) }));
}

/** A file or folder name safe on every OS, short enough for tar's path fields. */
function safeName(name: string, max = 80): string {
  const printable = [...name].map((ch) => (ch.charCodeAt(0) < 0x20 ? '_' : ch)).join('');
  const cleaned = printable.replace(/[\\/:*?"<>|]/g, '_').replace(/^\.+/, '_').trim() || '_';
  let out = cleaned;
  while (Buffer.byteLength(out) > max) out = [...out].slice(0, -1).join('');
  return out;
}

/** tar's prefix field holds 155 bytes: a deep folder path keeps its innermost folders. */
function fitFolders(parts: string[]): string[] {
  const kept = [...parts];
  while (kept.length && Buffer.byteLength(['readable', 'documents', ...kept].join('/')) > 150) kept.shift();
  return kept;
}

function pdfFiles(db: Database.Database, entityId: string): ReadableFile[] {
  const folders = new Map((db.prepare('SELECT id, name, parent_id AS parentId FROM folders WHERE entity_id = ?').all(entityId) as { id: string; name: string; parentId: string | null }[]).map((f) => [f.id, f]));
  const pathOf = (folderId: string | null): string[] => {
    const parts: string[] = [];
    for (let id = folderId, depth = 0; id && depth < 32; depth++) {
      const f = folders.get(id);
      if (!f) break;
      parts.unshift(safeName(f.name, 40));
      id = f.parentId;
    }
    return parts;
  };
  const docs = db.prepare('SELECT id, name, folder_id AS folderId, sha256 FROM documents WHERE entity_id = ? ORDER BY created_at, id').all(entityId) as { id: string; name: string; folderId: string | null; sha256: string }[];
  const used = new Set<string>();
  return docs.map((d) => {
    const base = safeName(d.name.replace(/\.pdf$/i, ''), 60);
    const dir = fitFolders(pathOf(d.folderId));
    let name = [...dir, `${base}.pdf`].join('/');
    // Two documents of one name in one folder: the second gets its id.
    if (used.has(name)) name = [...dir, `${base} (${d.id.slice(-8)}).pdf`].join('/');
    used.add(name);
    return { name: `documents/${name}`, blob: d.sha256 };
  });
}

export function readableFiles(ctx: Context, db: Database.Database, entityId: string): ReadableFile[] {
  return [
    { name: 'helpdesk/tickets.csv', data: tableCsv(db, 'helpdesk_tickets', entityId, 'created_at, id') },
    { name: 'helpdesk/messages.csv', data: tableCsv(db, 'helpdesk_messages', entityId, 'ticket_id, created_at, id') },
    ...journalCsvs(ctx, entityId),
    { name: 'ledger/events.csv', data: tableCsv(db, 'ledger_events', entityId, 'created_at, id') },
    { name: 'signatures/signature-requests.csv', data: tableCsv(db, 'signature_requests', entityId, 'created_at, id') },
    { name: 'signatures/signers.csv', data: tableCsv(db, 'signers', entityId, 'request_id, "order", id') },
    { name: 'signatures/audit.csv', data: tableCsv(db, 'signature_audit', entityId, 'request_id, seq') },
    ...pdfFiles(db, entityId),
  ];
}
