import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import { nowIso } from '../context.js';
import { accessorOf, assertFolderAccess } from './access.js';
import { folderContents } from './contents.js';
import { createFolder, deleteFolder, findFolder, listFolders, updateFolder } from './folders.js';
import { addFolderGrant, listFolderGrants, removeFolderGrant } from './grants.js';
import * as s from './schemas.js';

const tags = ['Folders'];
const view = { entity: 'Q', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' } as const;
const edit = { entity: 'QB', permission: 'DOCUMENTS.EDIT', scope: 'write:documents' } as const;
const userIdOf = (auth: { kind: string; userId?: string } | null) => (auth?.kind === 'session' ? auth.userId! : null);

export const folderRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/documents/folders', summary: 'List folders', description: 'Every folder the caller can see, flat (build the tree from parentId), ordered by name.', tags, access: view, response: z.array(s.folderSchema) },
    ({ ctx, entityId, auth }) => listFolders(ctx, entityId, accessorOf(ctx, entityId, auth)),
  ),
  route(
    { method: 'post', path: '/api/documents/folders', summary: 'Create a folder', tags, access: edit, body: s.createFolderBody, response: s.folderSchema, status: 201 },
    ({ ctx, entityId, auth, body }) => createFolder(ctx, entityId, accessorOf(ctx, entityId, auth), body, userIdOf(auth)),
  ),
  route(
    { method: 'patch', path: '/api/documents/folders/{folderId}', summary: 'Update a folder (rename, move, colour, icon)', tags, access: edit, params: s.folderParams, body: s.updateFolderBody, response: s.folderSchema },
    ({ ctx, entityId, auth, params, body }) => updateFolder(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId, body),
  ),
  route(
    {
      method: 'delete',
      path: '/api/documents/folders/{folderId}',
      summary: 'Delete a folder',
      description: 'An empty folder is deleted. A folder with subfolders or documents is refused with 409 unless `?recursive=true`; then the whole subtree of folders is deleted and its documents move to the deleted folder\'s parent (never deleted).',
      tags,
      access: edit,
      params: s.folderParams,
      query: s.deleteFolderQuery,
      response: z.object({ deleted: z.boolean() }),
      errors: { 409: 'Folder is not empty and recursive is not set' },
    },
    ({ ctx, entityId, auth, params, query }) => deleteFolder(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId, query.recursive),
  ),
  route(
    { method: 'get', path: '/api/documents/folders/{folderId}/grants', summary: 'Who the folder is shared with', tags, access: { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' }, params: s.folderParams, response: z.array(s.grantSchema) },
    ({ ctx, entityId, auth, params }) => listFolderGrants(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId),
  ),
  route(
    {
      method: 'post',
      path: '/api/documents/folders/{folderId}/grants',
      summary: 'Share the folder with a member or a role',
      description: 'Restricts the folder to its grantees (members below admin). Needs edit access to the folder.',
      tags,
      access: { entity: 'QBH', permission: 'DOCUMENTS.EDIT', scope: 'write:documents' },
      params: s.folderParams,
      body: s.addGrantBody,
      response: s.grantSchema,
      status: 201,
    },
    ({ ctx, entityId, auth, params, body }) => addFolderGrant(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId, body, userIdOf(auth)),
  ),
  route(
    {
      method: 'delete',
      path: '/api/documents/folders/{folderId}/grants',
      summary: 'Remove a grant',
      description: 'Body names the grant by grantId, userId or role. Returns the remaining grants; when none remain the folder is open to every member again.',
      tags,
      access: { entity: 'QBH', permission: 'DOCUMENTS.EDIT', scope: 'write:documents' },
      params: s.folderParams,
      body: s.removeGrantBody,
      response: z.object({ deleted: z.boolean(), grants: z.array(s.grantSchema) }),
    },
    ({ ctx, entityId, auth, params, body }) => removeFolderGrant(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId, body),
  ),
  route(
    { method: 'post', path: '/api/documents/folders/{folderId}/reorder', summary: 'Set the manual order of documents in the folder', tags, access: { entity: 'QBH', permission: 'DOCUMENTS.EDIT', scope: 'write:documents' }, params: s.folderParams, body: s.reorderBody, response: s.reorderResponse },
    ({ ctx, entityId, auth, params, body }) => {
      findFolder(ctx.db, entityId, params.folderId);
      assertFolderAccess(ctx, entityId, accessorOf(ctx, entityId, auth), params.folderId, 'edit');
      return { folderId: params.folderId, documentIds: folderContents().reorder(ctx, entityId, params.folderId, body.documentIds, nowIso(ctx)) };
    },
  ),
];
