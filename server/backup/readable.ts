import path from 'node:path';
import type { Context } from '../context.js';
import { csvField } from '../ledger/index.js';
import { writePartFile, type ExportSnapshot } from './export-snapshot.js';
import { columnsOf } from './inspect.js';
import { journalCsvs } from './readable-journal.js';

/**
 * The human-readable half of a business export: the data usable without Bureau. A CSV per area
 * (raw columns, as stored) and every PDF under its folder path.
 */

export interface ReadableFile {
  name: string;
  /** A file written for the export (a CSV), with its size and hash. */
  part?: { file: string; size: number; sha256: string };
  /** A blob to copy (a PDF). */
  blob?: string;
}

/** Where the CSVs are written: a scratch folder of the export, and a file name for each. */
interface Scratch {
  dir: string;
  next: number;
}
const scratchFile = (s: Scratch) => path.join(s.dir, `readable-${s.next++}.csv`);

/** Columns left out of the CSVs: search indexes and hashes of secrets are no reading matter. */
const OMIT = new Set(['search_text', 'token_hash', 'token_sealed', 'entity_id']);

/** A table's rows as CSV, written a row at a time (a million messages do not fit in one string). */
async function tableCsv(snap: ExportSnapshot, scratch: Scratch, name: string, table: string, entityId: string, orderBy: string): Promise<ReadableFile> {
  const cols = columnsOf(snap.db, table)
    .map((c) => c.name)
    .filter((c) => !OMIT.has(c) && !c.endsWith('_sealed'));
  const st = snap.db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${table}" WHERE entity_id = ? ORDER BY ${orderBy}`).raw();
  const part = await writePartFile(scratchFile(scratch), async (out) => {
    await out.write(cols.join(','));
    for (const r of snap.rows(st, [entityId])) {
      await out.write(`\r\n${r.map((v) => csvField(v === null || v === undefined ? null : String(v))).join(',')}`);
      await snap.pace();
    }
    await out.write('\r\n');
  });
  return { name, part };
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

async function pdfFiles(snap: ExportSnapshot, entityId: string): Promise<ReadableFile[]> {
  const db = snap.db;
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
  const docs = snap.rows<{ id: string; name: string; folderId: string | null; sha256: string }>(db.prepare('SELECT id, name, folder_id AS folderId, sha256 FROM documents WHERE entity_id = ? ORDER BY created_at, id'), [entityId]);
  const used = new Set<string>();
  const files: ReadableFile[] = [];
  for (const d of docs) {
    const base = safeName(d.name.replace(/\.pdf$/i, ''), 60);
    const dir = fitFolders(pathOf(d.folderId));
    let name = [...dir, `${base}.pdf`].join('/');
    // Two documents of one name in one folder: the second gets its id.
    if (used.has(name)) name = [...dir, `${base} (${d.id.slice(-8)}).pdf`].join('/');
    used.add(name);
    files.push({ name: `documents/${name}`, blob: d.sha256 });
    await snap.pace();
  }
  return files;
}

/** The readable files of the export: CSVs written into `dir` (a scratch folder), PDFs as their blobs. */
export async function readableFiles(ctx: Context, snap: ExportSnapshot, entityId: string, dir: string): Promise<ReadableFile[]> {
  const scratch: Scratch = { dir, next: 1 };
  const out: ReadableFile[] = [];
  out.push(await tableCsv(snap, scratch, 'helpdesk/tickets.csv', 'helpdesk_tickets', entityId, 'created_at, id'));
  out.push(await tableCsv(snap, scratch, 'helpdesk/messages.csv', 'helpdesk_messages', entityId, 'ticket_id, created_at, id'));
  out.push(...(await journalCsvs(ctx, snap, entityId, () => scratchFile(scratch))));
  out.push(await tableCsv(snap, scratch, 'ledger/events.csv', 'ledger_events', entityId, 'created_at, id'));
  out.push(await tableCsv(snap, scratch, 'signatures/signature-requests.csv', 'signature_requests', entityId, 'created_at, id'));
  out.push(await tableCsv(snap, scratch, 'signatures/signers.csv', 'signers', entityId, 'request_id, "order", id'));
  out.push(await tableCsv(snap, scratch, 'signatures/audit.csv', 'signature_audit', entityId, 'request_id, seq'));
  out.push(...(await pdfFiles(snap, entityId)));
  return out;
}
