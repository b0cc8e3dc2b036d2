import { Link } from 'react-router';
import { AuthCard } from './AuthCard';

/**
 * "Restore from a backup" on the set-up screen: a whole install comes back while Bureau is not
 * running (its database is replaced), so the steps are the restore command's.
 */
export function RestoreBackupPage() {
  return (
    <AuthCard title="Restore from a backup" lead="Bring back everything a Bureau install held — accounts, businesses, files and, with your recovery passphrase, its keys and passwords." footer={<Link to="/signup">Back to set-up</Link>}>
      <ol className="stack" style={{ paddingLeft: 20 }} data-restore="steps">
        <li>Quit Bureau, without setting it up.</li>
        <li>
          See what the backup holds (nothing is written):
          <pre>
            <code>npm run restore -- --from BACKUP-FILE --data-dir DATA-FOLDER --dry-run</code>
          </pre>
        </li>
        <li>
          Restore it; the passphrase file holds your recovery passphrase (without it, everything but the secrets comes back, and the command lists what is missing):
          <pre>
            <code>npm run restore -- --from BACKUP-FILE --data-dir DATA-FOLDER --passphrase-file PASSPHRASE-FILE</code>
          </pre>
        </li>
        <li>Start Bureau and sign in with your account as it was.</li>
      </ol>
      <p className="muted">A wrong passphrase, a damaged or newer backup, or a data folder that already holds an account is refused and nothing is written.</p>
    </AuthCard>
  );
}
