import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** An entity linked to a hosted instance, with this device's token (sealed at rest) and pull cursor. */
export const syncLinks = sqliteTable('sync_links', {
  entityId: text('entity_id').primaryKey(),
  hostedUrl: text('hosted_url').notNull(),
  /** Where the hosted instance serves public pages (signing links), when it does. */
  publicUrl: text('public_url'),
  accountId: text('account_id').notNull(),
  deviceId: text('device_id').notNull(),
  deviceTokenSealed: text('device_token_sealed').notNull(),
  role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }).notNull(),
  /** The seq of the last hosted change applied here (0 is a valid position: an entity whose hosted log is empty). */
  cursor: integer('cursor').notNull().default(0),
  /**
   * The next pull starts with a snapshot: set for a new link, when the hosted instance asks
   * (`mustRefetch`) and when this device gives up changes of its own; cleared in the snapshot's
   * transaction. Not the cursor: an empty log leaves the cursor at 0 for good.
   */
  needsSnapshot: integer('needs_snapshot', { mode: 'boolean' }).notNull().default(true),
  linkedAt: text('linked_at').notNull(),
  lastSyncAt: text('last_sync_at'),
  /** Why the last cycle failed (offline, revoked, update required, clock skew), null when it worked. */
  lastError: text('last_error'),
  lastErrorStatus: integer('last_error_status'),
  serverTimeOffsetMs: integer('server_time_offset_ms'),
});

/**
 * The push queue: every change captured (by triggers, in the writer's own transaction) to a
 * synced table of a linked entity, in commit order (`localSeq`), until the hosted instance
 * has answered for it.
 */
export const syncChanges = sqliteTable(
  'sync_changes',
  {
    localSeq: integer('local_seq').primaryKey({ autoIncrement: true }),
    changeId: text('change_id').notNull(),
    entityId: text('entity_id').notNull(),
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    op: text('op', { enum: ['upsert', 'fact', 'transition'] }).notNull(),
    columns: text('columns').notNull(),
    expect: text('expect'),
    hlc: text('hlc').notNull(),
    /**
     * The local transaction that made it: the hosted instance accepts a group whole or not at all
     * (a guarded transition and the journal entry it wrote stand or fall together).
     */
    groupId: text('group_id'),
    /** The change created its row here (undoing a refused group deletes such rows). Local only. */
    inserted: integer('inserted', { mode: 'boolean' }).notNull().default(false),
    createdAt: text('created_at').notNull(),
    /** accepted | duplicate | rejected once the hosted instance answered; null while queued. */
    result: text('result', { enum: ['accepted', 'duplicate', 'rejected'] }),
    seq: integer('seq'),
    reason: text('reason'),
    answeredAt: text('answered_at'),
    /** Set when a refused group was undone here: its rows took the hosted instance's state again. */
    revertedAt: text('reverted_at'),
  },
  (t) => [uniqueIndex('sync_changes_change_id_idx').on(t.changeId), index('sync_changes_queue_idx').on(t.entityId, t.result, t.localSeq)],
);

/** Per column of every synced row: the HLC stamp of the write that set it (for last-writer-wins). */
export const syncStamps = sqliteTable(
  'sync_stamps',
  {
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    column: text('column').notNull(),
    hlc: text('hlc').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.rowId, t.column] })],
);

/** This install's node id in HLC stamps (random, made once). */
export const syncNode = sqliteTable('sync_node', {
  id: integer('id').primaryKey(),
  node: text('node').notNull(),
});
