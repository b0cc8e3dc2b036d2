import type { ComponentType } from 'react';
import { NotificationBell } from './pages/notifications/NotificationBell';
import { SyncPill } from './pages/sync/SyncPill';

/** Widgets shown in the top bar (e.g. the notification bell); areas add theirs here. */
export const topBarItems: ComponentType[] = [SyncPill, NotificationBell];
