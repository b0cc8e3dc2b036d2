import type { Module } from '../modules.js';
import { recordMailResults } from './mail-audit.js';
import { runAutoReminders } from './reminders.js';
import { documentsModuleRoutes } from './routes.js';
import { expireOverdueRequests } from './transitions.js';

export const documentsModule: Module = {
  name: 'documents',
  routes: documentsModuleRoutes,
  start(ctx) {
    ctx.events.registerConsumer('documents.mail-audit', recordMailResults(ctx));
    ctx.loops.add('documents.expire', 60_000, () => void expireOverdueRequests(ctx));
    ctx.loops.add('documents.reminders', 15 * 60_000, () => void runAutoReminders(ctx));
  },
};
