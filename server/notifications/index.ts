import type { Module } from '../kernel/module.js';
import { notificationRoutes } from './routes.js';
import { registerNotificationConsumer } from './consumer.js';
import { announceArrivals } from './arrivals.js';

import { mutable } from '../kernel/sync-policy.js';
import { notificationEvents } from './events.js';

export const notificationsModule: Module = {
  name: 'notifications',
  routes: notificationRoutes,
  events: notificationEvents,
  start: registerNotificationConsumer,
  onApplied: announceArrivals,
  sync: {
    // Raised once, on the device where the change began (the outbox never fires for applied
    // changes), and synced to every device of the entity. Mutable rather than a fact: one raised
    // by two devices under its deterministic id (see `NotifyInput.key`) merges instead of being refused.
    notifications: mutable,
    // Per (notification, reader): read on one device is read on all of hers.
    notification_reads: mutable,
    notification_email_prefs: mutable,
  },
};
export { notify } from './notifications.js';
