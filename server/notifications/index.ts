import type { Module } from '../modules.js';
import { notificationRoutes } from './routes.js';
import { registerNotificationConsumer } from './consumer.js';

export const notificationsModule: Module = { name: 'notifications', routes: notificationRoutes, start: registerNotificationConsumer };
