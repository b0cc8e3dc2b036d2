import type { Module } from '../modules.js';
import { registerHostedMailRelay } from '../mail/index.js';
import { startSyncEngine } from './engine.js';
import { hostedMailRelay } from './mail-relay.js';
import { stopLive } from './live.js';
import { fact, local } from './policy.js';
import { syncRoutes } from './routes.js';
import { syncEvents } from './events.js';

export const syncModule: Module = {
  name: 'sync',
  routes: syncRoutes,
  events: syncEvents,
  start: (ctx) => {
    startSyncEngine(ctx);
    registerHostedMailRelay(ctx, hostedMailRelay);
  },
  stop: (ctx) => stopLive(ctx),
  sync: {
    sync_links: local('this device and its token'),
    sync_changes: local('the push queue'),
    sync_stamps: local("this device's per-column clocks"),
    sync_node: local("this install's clock id"),
    outbox: local('events fire on the device where the change began'),
    outbox_cursors: local('consumers of this device'),
    entity_events: fact,
  },
};
