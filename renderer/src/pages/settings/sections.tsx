import type { ReactNode } from 'react';
import { ApiKeysSection } from './ApiKeysSection';
import { MembersSection } from './MembersSection';
import { HelpdeskMailSection } from './HelpdeskMailSection';
import { WebhooksSection } from '../webhooks/WebhooksSection';
import { SyncSection } from '../sync/SyncSection';
import { BackupsSection } from './BackupsSection';
import { EmailSection } from './EmailSection';
import { TicketNumbersSection } from './TicketNumbersSection';
import { PasswordSection } from './PasswordSection';

/** Settings sub-pages; other areas (e.g. webhooks) add theirs here. */
export interface SettingsSection {
  path: string;
  label: string;
  element: ReactNode;
  order: number;
  /** Shown only to members with this permission. */
  permission?: string;
}

export const settingsSections: SettingsSection[] = [
  { path: 'api-keys', label: 'API keys', element: <ApiKeysSection />, order: 10 },
  { path: 'members', label: 'Members', element: <MembersSection />, order: 20 },
  { path: 'helpdesk-email', label: 'Helpdesk e-mail', element: <HelpdeskMailSection />, order: 25, permission: 'HELPDESK.VIEW' },
  { path: 'ticket-numbers', label: 'Ticket numbers', element: <TicketNumbersSection />, order: 26, permission: 'HELPDESK.VIEW' },
  { path: 'webhooks', label: 'Webhooks', element: <WebhooksSection />, order: 30 },
  { path: 'email', label: 'E-mail', element: <EmailSection />, order: 35, permission: 'SETTINGS.MANAGE' },
  { path: 'sync', label: 'Sync', element: <SyncSection />, order: 40, permission: 'SETTINGS.MANAGE' },
  { path: 'backups', label: 'Backups', element: <BackupsSection />, order: 50, permission: 'SETTINGS.MANAGE' },
  { path: 'password', label: 'Password', element: <PasswordSection />, order: 60 },
];
