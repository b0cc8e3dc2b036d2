import type { ReactNode } from 'react';
import { SettingsPage } from './pages/settings/SettingsPage';
import { DocumentsPage } from './pages/documents/DocumentsPage';
import { SigningPage } from './pages/documents/SigningPage';
import { HelpdeskPage } from './pages/helpdesk/HelpdeskPage';
import { NotificationsPage } from './pages/notifications/NotificationsPage';
import { LedgerPage } from './pages/ledger/LedgerPage';
import { WalletPage } from './pages/wallet/WalletPage';

/**
 * The app's areas. Each area adds one entry; the sidebar is built from `nav` (sorted by `order`).
 * `path` is relative to the app root and may end in `/*` for nested routes.
 */
export interface AreaRoute {
  path: string;
  element: ReactNode;
  nav?: { to: string; label: string; icon: string; order: number };
  /** Shown without signing in and without the app frame (e.g. a signing link's page). */
  public?: boolean;
}

export const areaRoutes: AreaRoute[] = [
  { path: 'documents/*', element: <DocumentsPage />, nav: { to: '/documents', label: 'Documents', icon: '✎', order: 10 } },
  { path: 'sign/:token', element: <SigningPage />, public: true },
  { path: 'ledger/*', element: <LedgerPage />, nav: { to: '/ledger', label: 'Ledger', icon: '⚖', order: 30 } },
  { path: 'helpdesk/*', element: <HelpdeskPage />, nav: { to: '/helpdesk', label: 'Helpdesk', icon: '✉', order: 20 } },
  { path: 'wallet/*', element: <WalletPage />, nav: { to: '/wallet', label: 'Wallet', icon: '◈', order: 40 } },
  { path: 'notifications', element: <NotificationsPage />, nav: { to: '/notifications', label: 'Notifications', icon: '⚑', order: 80 } },
  { path: 'settings/*', element: <SettingsPage />, nav: { to: '/settings', label: 'Settings', icon: '⚙', order: 90 } },
];
