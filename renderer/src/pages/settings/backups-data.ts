import { client, invalidateEntity, unwrap, useEntityQuery } from '../../api';

/** The last and next backup, the schedule and the passphrase's state (also the home page's warning). */
export function useBackupStatus() {
  return useEntityQuery(['backups', 'status'], () => unwrap(client.GET('/api/backups/settings')));
}

export function useBackupList() {
  return useEntityQuery(['backups', 'list'], () => unwrap(client.GET('/api/backups')));
}

/** After a backup or a change of its settings: the status and the list again. */
export function reloadBackups() {
  return invalidateEntity('backups');
}
