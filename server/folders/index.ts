import type { Module } from '../kernel/module.js';
import { folderRoutes } from './routes.js';

import { mutable } from '../kernel/sync-policy.js';

export const foldersModule: Module = { name: 'folders', routes: folderRoutes, sync: { folders: mutable, folder_grants: mutable } };
export { accessorOf, assertFolderAccess, folderLevel, visibleFolderIds, type Accessor } from './access.js';
export { registerFolderContents, type FolderContents } from './contents.js';
