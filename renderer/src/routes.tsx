import type { ReactNode } from 'react';
import { SettingsPage } from './pages/settings/SettingsPage';
import { DocumentsPage } from './pages/documents/DocumentsPage';
import { SigningPage } from './pages/documents/SigningPage';
import { HelpdeskPage } from './pages/helpdesk/HelpdeskPage';
import { NotificationsPage } from './pages/notifications/NotificationsPage';
import { LedgerPage } from './pages/ledger/LedgerPage';
import { WalletPage } from './pages/wallet/WalletPage';
import { HomePage } from './pages/home/HomePage';

/**
 * The app's areas. Each area adds one entry; the sidebar is built from `nav` (sorted by `order`).
 * `path` is relative to the app root and may end in `/*` for nested routes. The first area in the
 * navigation is where the app opens after sign-in.
 */
export interface AreaRoute {
  path: string;
  element: ReactNode;
  /** The area's part of the document title ("<title> · <entity> · Bureau"); views within refine it with usePageTitle. */
  title?: string;
  /** `end`: the link is current only on exactly `to` (for the home page at `/`). */
  nav?: { to: string; label: string; icon: string; order: number; end?: boolean };
  /** Shown without signing in and without the app frame (e.g. a signing link's page). */
  public?: boolean;
}

export const areaRoutes: AreaRoute[] = [
  { path: '/', element: <HomePage />, title: 'Home', nav: { to: '/', label: 'Home', icon: '⌂', order: 0, end: true } },
  { path: 'documents/*', element: <DocumentsPage />, title: 'Documents', nav: { to: '/documents', label: 'Documents', icon: '✎', order: 10 } },
  { path: 'sign/:token', element: <SigningPage />, public: true },
  { path: 'ledger/*', element: <LedgerPage />, title: 'Ledger', nav: { to: '/ledger', label: 'Ledger', icon: '⚖', order: 30 } },
  { path: 'helpdesk/*', element: <HelpdeskPage />, title: 'Helpdesk', nav: { to: '/helpdesk', label: 'Helpdesk', icon: '✉', order: 20 } },
  { path: 'wallet/*', element: <WalletPage />, title: 'Wallet', nav: { to: '/wallet', label: 'Wallet', icon: '◈', order: 40 } },
  { path: 'notifications', element: <NotificationsPage />, title: 'Notifications', nav: { to: '/notifications', label: 'Notifications', icon: '⚑', order: 80 } },
  { path: 'settings/*', element: <SettingsPage />, title: 'Settings', nav: { to: '/settings', label: 'Settings', icon: '⚙', order: 90 } },
];
