import type { Module } from '../modules.js';
import { folderRoutes } from './routes.js';

import { mutable } from '../sync/policy.js';

export const foldersModule: Module = { name: 'folders', routes: folderRoutes, sync: { folders: mutable, folder_grants: mutable } };
export { accessorOf, visibleFolderIds, type Accessor } from './access.js';
export { assertFolderAccess } from './access.js';
