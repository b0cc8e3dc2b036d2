import type { Module } from '../modules.js';
import { helpdeskRoutes } from './routes.js';

import { fact, local, mutable } from '../sync/policy.js';

export const helpdeskModule: Module = {
  name: 'helpdesk',
  routes: helpdeskRoutes,
  sync: {
    helpdesk_tickets: mutable,
    helpdesk_messages: fact,
    helpdesk_categories: mutable,
    helpdesk_node: local("this install's tag in ticket numbers"),
    helpdesk_ticket_counters: local('per-install ticket number counters (numbers carry the install tag)'),
  },
};
