import { api } from '../../api';
import { useAsync } from '../../ui/hooks';
import type { Mailbox } from './types';

/** The entity's support mailbox and the state of its incoming and outgoing mail. */
export function useMailbox() {
  return useAsync(() => api.get<Mailbox>('/api/helpdesk/mailbox'));
}
