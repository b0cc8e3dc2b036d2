import type { Module } from '../modules.js';
import { notificationRoutes } from './routes.js';
import { registerNotificationConsumer } from './consumer.js';

import { local } from '../sync/policy.js';

export const notificationsModule: Module = {
  name: 'notifications',
  routes: notificationRoutes,
  start: registerNotificationConsumer,
  sync: { notifications: local('raised on the device where the change began'), notification_reads: local('read state of this device') },
};
