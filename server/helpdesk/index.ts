import type { Module } from '../modules.js';
import { helpdeskRoutes } from './routes.js';

export const helpdeskModule: Module = { name: 'helpdesk', routes: helpdeskRoutes };
