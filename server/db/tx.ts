import type { RunResult } from 'better-sqlite3';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { BaseSQLiteDatabase, SQLiteTransaction } from 'drizzle-orm/sqlite-core';

// No schema type: nothing uses drizzle's relational queries (`db.query.x`), so the kernel needs
// no composition of the modules' tables.
type NoSchema = Record<string, never>;

/** What a write's callback receives: drizzle's transaction on the one better-sqlite3 connection. */
export type Tx = SQLiteTransaction<'sync', RunResult, NoSchema, ExtractTablesWithRelations<NoSchema>>;

/** A function that runs inside a write or on its own (reads, helpers shared by both) takes this. */
export type Queryable = BaseSQLiteDatabase<'sync', RunResult, NoSchema>;
