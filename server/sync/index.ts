import type { Module } from '../kernel/module.js';
import { registerHostedMailRelay } from '../mail/index.js';
import { startSyncEngine } from './engine.js';
import type { SyncApp } from './engine.js';
import { hostedMailRelay } from './mail-relay.js';
import { LIVE_TICK_MS, stopLive, tickLive } from './live.js';
import { fact, local } from '../kernel/sync-policy.js';
import { syncRoutes } from './routes.js';
import { syncEvents } from './events.js';

export type { SyncApp, SyncHooks } from './engine.js';

/** The sync module, handed the other modules' policies and hooks by the app. */
export const createSyncModule = (app: SyncApp): Module => ({
  name: 'sync',
  routes: syncRoutes,
  events: syncEvents,
  start: (ctx) => {
    startSyncEngine(ctx, app);
    // Here rather than in the engine, which live.ts uses: no import cycle.
    ctx.loops.add('sync', LIVE_TICK_MS, () => tickLive(ctx));
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
});
