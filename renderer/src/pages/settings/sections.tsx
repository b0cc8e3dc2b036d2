import type { ReactNode } from 'react';
import { ApiKeysSection } from './ApiKeysSection';
import { MembersSection } from './MembersSection';
import { WebhooksSection } from '../webhooks/WebhooksSection';

/** Settings sub-pages; other areas (e.g. webhooks) add theirs here. */
export interface SettingsSection {
  path: string;
  label: string;
  element: ReactNode;
  order: number;
}

export const settingsSections: SettingsSection[] = [
  { path: 'api-keys', label: 'API keys', element: <ApiKeysSection />, order: 10 },
  { path: 'members', label: 'Members', element: <MembersSection />, order: 20 },
  { path: 'webhooks', label: 'Webhooks', element: <WebhooksSection />, order: 30 },
];
