import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError, ConflictError } from '../http/errors.js';
import { ArchiveError, readEntry } from './archive.js';
import { columnsOf } from './inspect.js';
import { ROWS_PART, blobOfPart } from './manifest.js';
import { openArchiveForRestore, parseJson, RestoreError } from './restore-backup.js';
import { applySecrets, openSecrets, type SecretValue } from './secrets-part.js';
import { exclusive } from './run-backup.js';
import { INSTALL_LOCAL_TABLES, type EntityRows } from './export-entity.js';

const rowsSchema = z.object({
  entity: z.object({ id: z.string(), name: z.string() }).passthrough(),
  members: z.array(z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member', 'viewer']), createdAt: z.string(), memberSince: z.string() })),
  tables: z.record(z.string(), z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) })),
});

function decodeValue(v: unknown): unknown {
  if (v && typeof v === 'object') {
    if ('$int' in v) return BigInt(String((v as { $int: string }).$int));
    if ('$b64' in v) return Buffer.from(String((v as { $b64: string }).$b64), 'base64');
    throw new ArchiveError('The export is damaged: a value has an unknown form');
  }
  return v;
}

export interface ImportReport {
  dryRun: boolean;
  entity: { id: string; name: string };
  tables: Record<string, number>;
  files: number;
  members: { added: number; skipped: string[] };
  secrets: { inExport: boolean; restored: number; missing: string[] };
}

/**
 * Import business: brings an exported entity back with its ids (so audit chains, sealed PDFs and
 * shielded notes stay valid), its files and, with the passphrase, its secrets re-sealed by this
 * machine's key. All rows go in one transaction; an install that already has the entity refuses
 * (no silent merge). The importing user becomes an owner; the other people come back without a
 * password (as if invited), unless their e-mail already belongs to someone else here.
 */
export async function importEntity(ctx: Context, userId: string, input: { file: string; passphrase?: string; dryRun?: boolean }): Promise<ImportReport> {
  return exclusive(ctx, async () => {
    let opened: Awaited<ReturnType<typeof openArchiveForRestore>>;
    try {
      opened = await openArchiveForRestore(input.file, input.passphrase);
    } catch (err) {
      if (err instanceof ArchiveError || err instanceof RestoreError) throw new BadRequestError(err.message);
      throw err;
    }
    const { manifest, entries, sealed, privateKey } = opened;
    if (manifest.kind !== 'entity') throw new BadRequestError('This archive is a backup of a whole install: restore it with `npm run restore` into an empty data folder');
    const rowsEntry = entries.get(ROWS_PART);
    if (!rowsEntry) throw new BadRequestError('The export has no rows');
    let raw: unknown;
    try {
      raw = parseJson((await readEntry(input.file, rowsEntry)).toString('utf8'));
    } catch (err) {
      throw new BadRequestError(err instanceof Error ? err.message : String(err));
    }
    const parsed = rowsSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError('The export is damaged: its rows are malformed');
    const data = parsed.data as EntityRows & typeof parsed.data;
    const entityId = data.entity.id;
    const exists = () => !!ctx.sqlite.prepare('SELECT 1 FROM entities WHERE id = ?').get(entityId);
    if (exists()) throw new ConflictError(`This install already has the business "${data.entity.name}" (${entityId}): it is not imported twice (a linked business comes back through sync)`);
    const secrets: SecretValue[] = sealed && privateKey ? openSecrets(sealed, privateKey) : [];
    validateTables(ctx, data);
    if (input.dryRun) return dryRunReport(ctx, data, entries, manifest, { inExport: !!sealed, restorable: secrets.length });

    // Files first: content-addressed, so a failed import leaves at most unreferenced copies.
    let files = 0;
    for (const [name, entry] of entries) {
      const sha = blobOfPart(name);
      if (!sha) continue;
      const bytes = await readEntry(input.file, entry);
      if (crypto.createHash('sha256').update(bytes).digest('hex') !== sha) throw new BadRequestError(`The export is damaged: ${name} does not match its hash`);
      ctx.blobs.put(bytes);
      files++;
    }

    const skipped: string[] = [];
    let added = 0;
    const db = ctx.sqlite;
    const statements = new Map<string, Database.Statement<unknown[]>>();
    const insert = (table: string, columns: string[], row: unknown[]) => {
      const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
      let stmt = statements.get(sql);
      if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
      return stmt.run(...row.map(decodeValue));
    };
    try {
      db.transaction(() => {
        if (exists()) throw new ConflictError(`This install already has the business "${data.entity.name}"`);
        // Rows arrive table by table, not in the order their references need.
        db.pragma('defer_foreign_keys = ON');
        const entityCols = Object.keys(data.entity).filter((c) => columnsOf(db, 'entities').some((k) => k.name === c));
        insert('entities', entityCols, entityCols.map((c) => data.entity[c]));
        const now = nowIso(ctx);
        for (const m of data.members) {
          const byId = db.prepare('SELECT email FROM users WHERE id = ?').get(m.id) as { email: string } | undefined;
          if (!byId) {
            if (db.prepare('SELECT 1 FROM users WHERE email = ?').get(m.email)) {
              skipped.push(m.email);
              continue;
            }
            insert('users', ['id', 'email', 'name', 'password_hash', 'created_at', 'updated_at'], [m.id, m.email, m.name, null, m.createdAt, now]);
          }
          insert('memberships', ['entity_id', 'user_id', 'role', 'created_at'], [entityId, m.id, m.role, m.memberSince]);
          added++;
        }
        if (!db.prepare('SELECT 1 FROM memberships WHERE entity_id = ? AND user_id = ?').get(entityId, userId)) insert('memberships', ['entity_id', 'user_id', 'role', 'created_at'], [entityId, userId, 'owner', now]);
        for (const [table, t] of Object.entries(data.tables)) for (const row of t.rows) insert(table, t.columns, row);
        applySecrets(db, secrets, ctx.secrets);
      })();
    } catch (err) {
      if (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('SQLITE_CONSTRAINT')) {
        throw new ConflictError(`Rows of this business already exist on this install (${err.message}): nothing was imported`);
      }
      throw err;
    }
    return {
      dryRun: false,
      entity: { id: entityId, name: data.entity.name },
      tables: Object.fromEntries(Object.entries(data.tables).map(([t, v]) => [t, v.rows.length])),
      files,
      members: { added, skipped },
      secrets: { inExport: !!sealed, restored: secrets.length, missing: secrets.length ? [] : manifest.secrets.columns },
    };
  });
}

/** Every table and column of the export must exist here (an older export's schema is a subset). */
function validateTables(ctx: Context, data: EntityRows): void {
  for (const [table, t] of Object.entries(data.tables)) {
    if (INSTALL_LOCAL_TABLES.has(table)) throw new BadRequestError(`The export holds rows of ${table}, which are not imported`);
    const cols = columnsOf(ctx.sqlite, table);
    if (!cols.length) throw new BadRequestError(`The export holds a table this Bureau does not have: ${table}`);
    if (!cols.some((c) => c.name === 'entity_id')) throw new BadRequestError(`The export holds rows of ${table}, which belongs to no business`);
    const known = new Set(cols.map((c) => c.name));
    const unknown = t.columns.filter((c) => !known.has(c));
    if (unknown.length) throw new BadRequestError(`The export holds columns this Bureau does not have: ${table}.${unknown.join(', ')}`);
    const entityIdx = t.columns.indexOf('entity_id');
    if (t.rows.some((r) => r[entityIdx] !== data.entity.id)) throw new BadRequestError(`The export holds rows of another business in ${table}`);
  }
}

/** What an import would bring: the same checks (the passphrase included), nothing written. */
function dryRunReport(ctx: Context, data: EntityRows & { entity: { id: string; name: string } }, entries: Map<string, unknown>, manifest: { secrets: { columns: string[] } }, secrets: { inExport: boolean; restorable: number }): ImportReport {
  const skipped = data.members.filter((m) => !ctx.sqlite.prepare('SELECT 1 FROM users WHERE id = ?').get(m.id) && ctx.sqlite.prepare('SELECT 1 FROM users WHERE email = ?').get(m.email)).map((m) => m.email);
  return {
    dryRun: true,
    entity: { id: data.entity.id, name: data.entity.name },
    tables: Object.fromEntries(Object.entries(data.tables).map(([t, v]) => [t, v.rows.length])),
    files: [...entries.keys()].filter((name) => blobOfPart(name)).length,
    members: { added: data.members.length - skipped.length, skipped },
    secrets: { inExport: secrets.inExport, restored: secrets.restorable, missing: secrets.restorable ? [] : manifest.secrets.columns },
  };
}
