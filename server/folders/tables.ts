import { sqliteTable, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Folders form a tree per entity (parentId null = top level). */
export const folders = sqliteTable(
  'folders',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    parentId: text('parent_id'),
    color: text('color').notNull(),
    icon: text('icon').notNull(),
    createdBy: text('created_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('folders_entity_idx').on(t.entityId, t.parentId)],
);

/**
 * Sharing grants: a member (userId) or everyone holding a role (role) gets `view` or `edit`
 * on a folder and, unless a subfolder has grants of its own, on its subfolders.
 */
export const folderGrants = sqliteTable(
  'folder_grants',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    folderId: text('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    userId: text('user_id'),
    role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }),
    level: text('level', { enum: ['view', 'edit'] }).notNull(),
    createdBy: text('created_by'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('folder_grants_folder_idx').on(t.entityId, t.folderId),
    uniqueIndex('folder_grants_user_uq').on(t.folderId, t.userId),
    uniqueIndex('folder_grants_role_uq').on(t.folderId, t.role),
  ],
);
