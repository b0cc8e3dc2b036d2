import { client, unwrap, type Schema } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { formatDateTime, formatRelative, useAction } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { FolderCard, PassphraseCard } from './BackupSettingsCards';
import { ExportCard, ImportCard } from './BusinessTransferCards';
import { reloadBackups, useBackupList, useBackupStatus } from './backups-data';
import { formatSize } from './format';
import './backups.css';

type BackupStatus = Schema<'BackupStatus'>;

/** Settings → Backups: the last and next backup, Back up now, Export business, the passphrase and how to restore. */
export function BackupsSection() {
  const session = useSession();
  usePageTitle('Backups');
  const status = useBackupStatus();
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage backups.</Notice>;
  if (!status.data) return status.error ? <ErrorBanner error={status.error.message} onRetry={() => void status.refetch()} /> : <Spinner />;
  const s = status.data;
  return (
    <div className="stack">
      <BackupStatusCard status={s} />
      <FolderCard status={s} onSaved={reloadBackups} />
      <PassphraseCard status={s} onSaved={reloadBackups} />
      <ExportCard />
      <ImportCard />
      <Card title="Restore">
        <p className="muted" style={{ marginTop: 0 }}>
          To bring a whole install back (every business, the accounts and, with the recovery passphrase, the secrets): install Bureau on the new machine and, on its set-up screen, choose <strong>Restore from a backup</strong>. Very large backups can be restored with <code>npm run restore -- --from BACKUP --data-dir DATA [--passphrase-file FILE]</code> while Bureau is not running.
        </p>
      </Card>
    </div>
  );
}

/** The last and next backup, the schedule, whether secrets are in it, Back up now, and the backups kept. */
function BackupStatusCard({ status: s }: { status: BackupStatus }) {
  const backUp = useAction(async () => {
    await unwrap(client.POST('/api/backups'));
    await reloadBackups();
  });
  return (
    <Card
      title="Backups"
      actions={
        <Button variant="primary" onClick={() => void backUp.run()} busy={backUp.pending || s.underWay}>
          Back up now
        </Button>
      }
    >
      <ErrorBanner error={backUp.error} />
      {s.overdue && (
        <Notice kind="warning">
          The last good backup is older than the schedule allows{s.lastError ? `: the last attempt failed (${s.lastError.message})` : ''}.
        </Notice>
      )}
      <dl className="backup-facts" data-backups="status">
        <dt>Last backup</dt>
        <dd data-field="last-backup">{s.lastBackup ? `${formatDateTime(s.lastBackup.createdAt)} (${formatRelative(s.lastBackup.createdAt)}), ${formatSize(s.lastBackup.size)}` : 'None yet'}</dd>
        <dt>Where</dt>
        <dd>
          <code>{s.lastBackup?.file ?? s.folder}</code>
        </dd>
        <dt>Next backup</dt>
        <dd data-field="next-backup">{s.enabled ? (s.nextBackupAt ? formatDateTime(s.nextBackupAt) : 'Soon') : 'Automatic backups are off'}</dd>
        <dt>Schedule</dt>
        <dd>
          Every {s.intervalHours === 24 ? 'day' : `${s.intervalHours} hours`}; keeps {s.keepDaily} daily and {s.keepWeekly} weekly
        </dd>
        <dt>Secrets</dt>
        <dd>{s.passphraseSet ? <Badge tone="green">Included, encrypted with your recovery passphrase</Badge> : <Badge tone="amber">Not included: set a recovery passphrase</Badge>}</dd>
      </dl>
      <BackupsTable />
    </Card>
  );
}

function BackupsTable() {
  const list = useBackupList();
  if (!list.data?.length) return null;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Backups">
        <thead>
          <tr>
            <th>Taken</th>
            <th>Size</th>
            <th>Checked</th>
            <th>Secrets</th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((b) => (
            <tr key={b.file}>
              <td title={b.file}>{formatDateTime(b.createdAt)}</td>
              <td>{formatSize(b.size)}</td>
              <td>{b.verified ? <Badge tone="green">Verified</Badge> : <Badge>Not checked here</Badge>}</td>
              <td>{b.secretsIncluded ? 'Yes' : 'No'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
