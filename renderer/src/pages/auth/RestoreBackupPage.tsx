import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { client, unwrap, uploadFile, type Schema } from '../../api';
import { useSession } from '../../session';
import { Button, ErrorBanner, Field, Notice, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { AuthCard } from './AuthCard';
import { RestoreSummary } from './RestoreSummary';

type RestoreReport = Schema<'RestoreReport'>;
/** Where the archive is: an upload (its id) or a path on this machine (the server is local). */
type Source = { upload: string } | { file: string };

const restoreFrom = (body: Source & { dryRun?: boolean; passphrase?: string }) => unwrap(client.POST('/api/setup/restore', { body }));

/**
 * "Restore from a backup" on the set-up screen of a fresh install: the backup is uploaded (or
 * named by its path) and checked, its dry run shown; then the restore, with the recovery
 * passphrase when there is one; then sign in with the restored account.
 */
export function RestoreBackupPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [restored, setRestored] = useState<RestoreReport | null>(null);
  const signIn = async () => {
    await session.refresh();
    navigate('/');
  };
  if (!restored) return <ChooseBackup onRestored={setRestored} />;
  return (
    <AuthCard title="Backup restored" lead="Everything the backup held is on this install now. Sign in with your account as it was.">
      <div className="stack" data-restore="done">
        <RestoreSummary report={restored} />
        <Button variant="primary" onClick={() => void signIn()}>
          Sign in
        </Button>
      </div>
    </AuthCard>
  );
}

/** The backup, uploaded or named by its path, and checked (nothing written); then its restore. */
function ChooseBackup({ onRestored }: { onRestored: (report: RestoreReport) => void }) {
  const [source, setSource] = useState<Source | null>(null);
  const [report, setReport] = useState<RestoreReport | null>(null);
  const [path, setPath] = useState('');
  const check = useAction(async (file: File) => {
    setReport(null);
    const up = await uploadFile('/api/setup/restore/uploads', file);
    setSource({ upload: up.upload });
    setReport(up.report);
  });
  const checkPath = useAction(async () => {
    setReport(null);
    const src = { file: path.trim() };
    setReport(await restoreFrom({ ...src, dryRun: true }));
    setSource(src);
  });
  const restore = useAction(async (passphrase: string) => {
    if (!source) return;
    onRestored(await restoreFrom({ ...source, ...(passphrase ? { passphrase } : {}) }));
  });
  return (
    <AuthCard title="Restore from a backup" lead="Bring back everything a Bureau install held — accounts, businesses, files and, with your recovery passphrase, its keys and passwords." footer={<Link to="/signup">Back to set-up</Link>}>
      <div className="stack">
        <ErrorBanner error={check.error ?? checkPath.error} />
        <Field label="Backup file" hint="A .bureau-backup file from Settings → Backups or the backup command.">
          {(id) => <input id={id} type="file" accept=".bureau-backup,.tar,application/x-tar" data-restore="file" disabled={check.pending || restore.pending} onChange={(e) => e.target.files?.[0] && void check.run(e.target.files[0])} />}
        </Field>
        <form className="form" onSubmit={(e) => (e.preventDefault(), void checkPath.run())}>
          <TextInput label="Or its path on this machine" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/bureau-2026-….bureau-backup" />
          <div>
            <Button type="submit" busy={checkPath.pending} disabled={!path.trim()}>
              Check this file
            </Button>
          </div>
        </form>
        {check.pending && <p className="muted">Uploading and checking the backup…</p>}
        {report && <DryRun report={report} restore={restore} />}
        <CommandLineSteps />
      </div>
    </AuthCard>
  );
}

/** The checked backup's contents, the recovery passphrase when it holds secrets, and Restore. */
function DryRun({ report, restore }: { report: RestoreReport; restore: { run: (passphrase: string) => Promise<unknown>; pending: boolean; error: string | null } }) {
  const [passphrase, setPassphrase] = useState('');
  return (
    <div className="stack" data-restore="dry-run">
      <Notice kind="info">This backup was checked; nothing is written until you restore it.</Notice>
      <RestoreSummary report={report} />
      <form className="form" onSubmit={(e) => (e.preventDefault(), void restore.run(passphrase))}>
        <ErrorBanner error={restore.error} />
        {report.secrets.inBackup && (
          <TextInput label="Recovery passphrase" type="password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} autoComplete="off" hint="Optional: without it, everything but the keys, passwords and tokens is restored." />
        )}
        <div>
          <Button variant="primary" type="submit" busy={restore.pending}>
            Restore
          </Button>
        </div>
      </form>
    </div>
  );
}

function CommandLineSteps() {
  return (
    <details>
      <summary className="muted">A very large backup? Restore it from the command line</summary>
      <ol className="stack muted" style={{ paddingLeft: 20 }} data-restore="steps">
        <li>Quit Bureau, without setting it up.</li>
        <li>
          See what the backup holds: <code>npm run restore -- --from BACKUP-FILE --data-dir DATA-FOLDER --dry-run</code>
        </li>
        <li>
          Restore it: <code>npm run restore -- --from BACKUP-FILE --data-dir DATA-FOLDER --passphrase-file PASSPHRASE-FILE</code> (the desktop app's keys are in the system keychain, which the command cannot reach: restore secrets into the desktop app from this screen).
        </li>
      </ol>
    </details>
  );
}
