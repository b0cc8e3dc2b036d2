import type { Module } from '../modules.js';
import { folderRoutes } from './routes.js';

export const foldersModule: Module = { name: 'folders', routes: folderRoutes };
