import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import type { restoreReportSchema, restoreUploadSchema } from '../../../../server/backup/schemas';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, ErrorBanner, Field, Notice, TextInput } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { uploadArchive } from '../settings/upload-archive';
import { formatSize } from '../settings/BackupsSection';
import { AuthCard } from './AuthCard';

type RestoreReport = z.output<typeof restoreReportSchema>;
type RestoreUpload = z.output<typeof restoreUploadSchema>;
/** Where the archive is: an upload (its id) or a path on this machine (the server is local). */
type Source = { upload: string } | { file: string };

/**
 * "Restore from a backup" on the set-up screen of a fresh install: the backup is uploaded (or
 * named by its path) and checked, its dry run shown; then the restore, with the recovery
 * passphrase when there is one; then sign in with the restored account.
 */
export function RestoreBackupPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [source, setSource] = useState<Source | null>(null);
  const [report, setReport] = useState<RestoreReport | null>(null);
  const [restored, setRestored] = useState<RestoreReport | null>(null);
  const [path, setPath] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const check = useAction(async (file: File) => {
    setReport(null);
    const up = await uploadArchive<RestoreUpload>('/api/setup/restore/uploads', file);
    setSource({ upload: up.upload });
    setReport(up.report);
  });
  const checkPath = useAction(async () => {
    setReport(null);
    const src = { file: path.trim() };
    setReport(await api.post<RestoreReport>('/api/setup/restore', { ...src, dryRun: true }));
    setSource(src);
  });
  const restore = useAction(async () => {
    if (!source) return;
    setRestored(await api.post<RestoreReport>('/api/setup/restore', { ...source, ...(passphrase ? { passphrase } : {}) }));
  });
  const signIn = async () => {
    await session.refresh();
    navigate('/');
  };

  if (restored) {
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
        {report && (
          <div className="stack" data-restore="dry-run">
            <Notice kind="info">This backup was checked; nothing is written until you restore it.</Notice>
            <RestoreSummary report={report} />
            <form className="form" onSubmit={(e) => (e.preventDefault(), void restore.run())}>
              <ErrorBanner error={restore.error} />
              {report.secrets.inBackup && (
                <TextInput
                  label="Recovery passphrase"
                  type="password"
                  value={passphrase}
                  onChange={(e) => setPassphrase(e.target.value)}
                  autoComplete="off"
                  hint="Optional: without it, everything but the keys, passwords and tokens is restored."
                />
              )}
              <div>
                <Button variant="primary" type="submit" busy={restore.pending}>
                  Restore
                </Button>
              </div>
            </form>
          </div>
        )}
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
      </div>
    </AuthCard>
  );
}

function RestoreSummary({ report }: { report: RestoreReport }) {
  const s = report.secrets;
  return (
    <dl className="backup-facts" data-restore="report">
      <dt>Backup of</dt>
      <dd>
        {formatDateTime(report.createdAt)} (Bureau {report.appVersion})
      </dd>
      <dt>Businesses</dt>
      <dd data-field="entities">
        {report.entities.length === 0
          ? 'None'
          : report.entities.map((e) => (
              <div key={e.id}>
                <strong>{e.name}</strong> — {summarize(e.counts)}
              </div>
            ))}
      </dd>
      <dt>Files</dt>
      <dd>
        {report.files.count} ({formatSize(report.files.bytes)})
      </dd>
      <dt>Secrets</dt>
      <dd data-field="secrets">
        {!s.inBackup ? (
          <Badge tone="amber">Not in this backup</Badge>
        ) : report.dryRun ? (
          <Badge tone="green">Included (the recovery passphrase opens them)</Badge>
        ) : s.missing.length ? (
          <Badge tone="amber">Not restored: {s.missing.length} kind(s) missing</Badge>
        ) : (
          <Badge tone="green">{s.restored} restored</Badge>
        )}
        {/* Before the restore, the passphrase field says what its absence means. */}
        {s.note && !(report.dryRun && s.inBackup) && <div className="muted">{s.note}</div>}
      </dd>
    </dl>
  );
}

/** The counts a person recognizes, not every table. */
function summarize(counts: Record<string, number>): string {
  const shown: [string, string][] = [
    ['helpdesk_tickets', 'tickets'],
    ['ledger_events', 'ledger events'],
    ['documents', 'documents'],
    ['signature_requests', 'signature requests'],
    ['wallet_notes', 'wallet notes'],
  ];
  const parts = shown.filter(([t]) => counts[t]).map(([t, label]) => `${counts[t]} ${label}`);
  return parts.length ? parts.join(', ') : 'no records yet';
}
