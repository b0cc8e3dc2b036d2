import { z } from 'zod';
import { ROLES } from '../auth/index.js';

export const FOLDER_ICONS = ['folder', 'archive', 'briefcase', 'contract', 'invoice', 'receipt', 'star', 'lock', 'users', 'inbox', 'tag', 'heart'] as const;
export const DEFAULT_FOLDER_COLOR = '#64748b';

const name = z.string().trim().min(1, 'name is required').max(120);
const description = z.string().trim().max(2000);
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour like #1e88e5')
  .transform((c) => c.toLowerCase())
  .meta({ description: 'Hex colour `#rrggbb`; defaults to #64748b.', example: '#1e88e5' });
const icon = z.enum(FOLDER_ICONS).meta({ description: `One of the UI's folder icons; defaults to \`folder\`.` });
const parentId = z.uuid().nullable().meta({ description: 'A folder of the same entity; null = top level. A move that would make a folder its own ancestor is refused (400).' });

export const folderSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    name: z.string(),
    description: z.string(),
    parentId: z.uuid().nullable(),
    color: z.string(),
    icon: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    access: z.enum(['view', 'edit']).meta({ description: "The caller's effective access to the folder (grants for members below admin; `edit` otherwise)." }),
  })
  .meta({ id: 'Folder' });

export const createFolderBody = z.object({
  entityId: z.uuid().optional(),
  name,
  description: description.optional(),
  parentId: parentId.optional(),
  color: color.optional(),
  icon: icon.optional(),
});
export const updateFolderBody = z
  .object({ entityId: z.uuid().optional(), name: name.optional(), description: description.optional(), parentId: parentId.optional(), color: color.optional(), icon: icon.optional() })
  .meta({ description: 'Any subset of the folder fields; absent fields are unchanged.' });
export const folderParams = z.object({ folderId: z.uuid() });
export const deleteFolderQuery = z.object({
  entityId: z.uuid().optional(),
  recursive: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .meta({ description: 'A folder with subfolders or documents is refused (409) unless `recursive=true`: then its subfolders are deleted too and every document in them moves to the deleted folder\'s parent. Documents are never deleted by deleting a folder.' }),
});

export const grantLevel = z.enum(['view', 'edit']);
export const grantSchema = z
  .object({
    id: z.uuid(),
    folderId: z.uuid(),
    userId: z.uuid().nullable(),
    role: z.enum(ROLES).nullable(),
    name: z.string().nullable().meta({ description: "The member's name for a user grant" }),
    email: z.string().nullable(),
    level: grantLevel,
    createdAt: z.string(),
  })
  .meta({
    id: 'FolderGrant',
    description:
      'Shares a folder with one member (userId) or every member holding a role (role) at `view` or `edit`. A folder with at least one grant is restricted: members below admin see it (and its subfolders without grants of their own) only through a grant. Folders without grants anywhere above them are open to every member. Owners, admins and API keys are never limited by grants.',
  });
export const addGrantBody = z
  .object({ entityId: z.uuid().optional(), userId: z.uuid().optional(), role: z.enum(ROLES).optional(), level: grantLevel })
  .refine((b) => (b.userId ? 1 : 0) + (b.role ? 1 : 0) === 1, 'Give exactly one of userId or role')
  .meta({ description: 'Exactly one of userId (a member of the entity) or role. Granting again to the same grantee changes the level.' });
export const removeGrantBody = z
  .object({ entityId: z.uuid().optional(), grantId: z.uuid().optional(), userId: z.uuid().optional(), role: z.enum(ROLES).optional() })
  .refine((b) => (b.grantId ? 1 : 0) + (b.userId ? 1 : 0) + (b.role ? 1 : 0) === 1, 'Give exactly one of grantId, userId or role');

export const reorderBody = z
  .object({
    entityId: z.uuid().optional(),
    documentIds: z
      .array(z.uuid())
      .min(1, 'documentIds must not be empty')
      .max(10_000)
      .refine((ids) => new Set(ids).size === ids.length, 'documentIds must not repeat'),
  })
  .meta({
    description:
      'The manual order of documents in the folder, first to last. Listed documents take positions 0…n-1; documents of the folder that are not listed keep their relative order after them. Ids that are not documents of this folder → 400.',
  });
export const reorderResponse = z.object({ folderId: z.uuid(), documentIds: z.array(z.uuid()).meta({ description: "Every document of the folder in its new order" }) });
