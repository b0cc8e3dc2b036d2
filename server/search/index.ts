import type { Module } from '../kernel/module.js';
import { searchRoutes } from './routes.js';

/** The top bar's search across areas; each area's index is its own module's (FTS5 tables kept by triggers). */
export const searchModule: Module = { name: 'search', routes: searchRoutes, sync: {} };
