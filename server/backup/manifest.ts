import { z } from 'zod';
import { ArchiveError, readManifest, verifyArchive, type ArchiveEntry } from './archive.js';

/** Bumped when an older Bureau could no longer read what this one writes. */
export const FORMAT_VERSION = 1;
export const FORMAT = 'bureau-backup';

export const DB_PART = 'db/bureau.db';
export const SECRETS_PART = 'secrets.json';
export const ROWS_PART = 'rows.json';

export const blobPartName = (sha256: string) => `blobs/sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
export const blobOfPart = (name: string) => /^blobs\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/.exec(name)?.[1] ?? null;

const partSchema = z.object({ name: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int().positive(),
  /** `install`: the whole data folder; `entity`: one business (Export business). */
  kind: z.enum(['install', 'entity']),
  appVersion: z.string(),
  createdAt: z.string(),
  /** The newest schema migration applied to the database in the archive. */
  migration: z.object({ when: z.number(), tag: z.string().nullable() }),
  entities: z.array(z.object({ id: z.string(), name: z.string(), counts: z.record(z.string(), z.number()) })),
  tables: z.record(z.string(), z.number()),
  files: z.object({ count: z.number(), bytes: z.number() }),
  secrets: z.object({
    included: z.boolean(),
    count: z.number(),
    /** `table.column` of each sealed value in the data, whether or not it could be included. */
    columns: z.array(z.string()),
    reason: z.string().optional(),
  }),
  parts: z.array(partSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

/**
 * Reads and checks an archive in full before anything is restored from it: its format and
 * version, then every part's size and SHA-256.
 */
export async function openVerifiedArchive(file: string): Promise<{ manifest: Manifest; entries: Map<string, ArchiveEntry> }> {
  const { manifest: raw, dataStart } = await readManifest(file);
  const head = z.object({ format: z.literal(FORMAT), formatVersion: z.number() }).safeParse(raw);
  if (!head.success) throw new ArchiveError('Not a Bureau backup (its manifest has no Bureau format)');
  if (head.data.formatVersion > FORMAT_VERSION) throw new ArchiveError(`This backup was written by a newer Bureau (format ${head.data.formatVersion}; this one reads up to ${FORMAT_VERSION}): update Bureau to restore it`);
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new ArchiveError('The backup is damaged: its manifest is incomplete');
  const entries = await verifyArchive(file, parsed.data.parts, dataStart);
  return { manifest: parsed.data, entries };
}
