import type { RunResult } from 'better-sqlite3';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { BaseSQLiteDatabase, SQLiteTransaction } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema.js';

/** What a write's callback receives: drizzle's transaction on the one better-sqlite3 connection. */
export type Tx = SQLiteTransaction<'sync', RunResult, typeof schema, ExtractTablesWithRelations<typeof schema>>;

/** A function that runs inside a write or on its own (reads, helpers shared by both) takes this. */
export type Queryable = BaseSQLiteDatabase<'sync', RunResult, typeof schema>;
