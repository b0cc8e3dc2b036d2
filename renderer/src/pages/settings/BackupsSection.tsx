import { useState } from 'react';
import type { z } from 'zod';
import type { backupItemSchema, backupStatusSchema, exportResultSchema, importResultSchema, importUploadSchema } from '../../../../server/backup/schemas';
import { uploadArchive } from './upload-archive';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, ErrorBanner, Field, Notice, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, formatRelative, useAction, useAsync } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import './backups.css';

// Derived from the server's schemas, not copied.
export type BackupStatus = z.output<typeof backupStatusSchema>;
type BackupItem = z.output<typeof backupItemSchema>;
type ExportResult = z.output<typeof exportResultSchema>;
type ImportResult = z.output<typeof importResultSchema>;
type ImportUpload = z.output<typeof importUploadSchema>;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** Settings → Backups: the last and next backup, Back up now, Export business, the passphrase and how to restore. */
export function BackupsSection() {
  const session = useSession();
  usePageTitle('Backups');
  const status = useAsync(() => api.get<BackupStatus>('/api/backups/settings'));
  const list = useAsync(() => api.get<BackupItem[]>('/api/backups'));
  const reload = async () => {
    await Promise.all([status.reload(), list.reload()]);
  };
  const backUp = useAction(async () => {
    await api.post('/api/backups');
    await reload();
  });
  const [exported, setExported] = useState<ExportResult | null>(null);
  const exportBusiness = useAction(async () => setExported(await api.post<ExportResult>('/api/backups/export')));
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage backups.</Notice>;
  if (!status.data) return status.error ? <ErrorBanner error={status.error} onRetry={() => void status.reload()} /> : <Spinner />;
  const s = status.data;
  return (
    <div className="stack">
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
        {list.data && list.data.length > 0 && (
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
        )}
      </Card>
      <FolderCard status={s} onSaved={reload} />
      <PassphraseCard status={s} onSaved={reload} />
      <Card
        title="Export business"
        actions={
          <Button onClick={() => void exportBusiness.run()} busy={exportBusiness.pending}>
            Export {session.entity?.name}
          </Button>
        }
      >
        <p className="muted" style={{ marginTop: 0 }}>
          One file with this business's data, files and (with the recovery passphrase) secrets, to import on another Bureau install — and, inside it under <code>readable/</code>, a CSV per area and the PDFs by folder, usable without Bureau.
        </p>
        <ErrorBanner error={exportBusiness.error} />
        {exported && (
          <Notice kind="success">
            <div className="stack" style={{ width: '100%', gap: 8 }}>
              <strong>
                Exported {exported.entity.name} ({formatSize(exported.size)}){exported.secretsIncluded ? '' : ' without its secrets'}.
              </strong>
              <CopyField value={exported.file} label="Export file" />
            </div>
          </Notice>
        )}
      </Card>
      <ImportCard />
      <Card title="Restore">
        <p className="muted" style={{ marginTop: 0 }}>
          To bring a whole install back (every business, the accounts and, with the recovery passphrase, the secrets): install Bureau on the new machine and, on its set-up screen, choose <strong>Restore from a backup</strong>. Very large backups can be restored with <code>npm run restore -- --from BACKUP --data-dir DATA [--passphrase-file FILE]</code> while Bureau is not running.
        </p>
      </Card>
    </div>
  );
}

function FolderCard({ status, onSaved }: { status: BackupStatus; onSaved: () => Promise<void> }) {
  const [folder, setFolder] = useState(status.folder === status.defaultFolder ? '' : status.folder);
  const [hours, setHours] = useState(String(status.intervalHours));
  const save = useAction(async () => {
    await api.put('/api/backups/settings', { folder: folder.trim() || null, intervalHours: Number(hours) });
    await onSaved();
  });
  const toggle = useAction(async () => {
    await api.put('/api/backups/settings', { enabled: !status.enabled });
    await onSaved();
  });
  return (
    <Card
      title="Folder and schedule"
      actions={
        <Button onClick={() => void toggle.run()} busy={toggle.pending}>
          {status.enabled ? 'Turn automatic backups off' : 'Turn automatic backups on'}
        </Button>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <ErrorBanner error={save.error ?? toggle.error} />
        <TextInput label="Backup folder" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder={status.defaultFolder} hint="An absolute path outside the data folder — best on another disk. Empty: the default beside the data folder." />
        <TextInput label="Every (hours)" type="number" min={1} max={168} value={hours} onChange={(e) => setHours(e.target.value)} />
        <div>
          <Button type="submit" variant="primary" busy={save.pending}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}

function PassphraseCard({ status, onSaved }: { status: BackupStatus; onSaved: () => Promise<void> }) {
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [current, setCurrent] = useState('');
  const [done, setDone] = useState(false);
  const save = useAction(async () => {
    if (passphrase !== repeat) throw new Error('The two passphrases differ');
    await api.post('/api/backups/passphrase', { passphrase, ...(status.passphraseSet ? { currentPassphrase: current } : {}) });
    setPassphrase('');
    setRepeat('');
    setCurrent('');
    setDone(true);
    await onSaved();
  });
  return (
    <Card title="Recovery passphrase">
      <p className="muted" style={{ marginTop: 0 }}>
        Wallet keys, the signing key and mailbox passwords are locked to this machine. With a recovery passphrase, backups carry them encrypted with it, so a restore on another machine brings them back. Bureau keeps only a check of it: if you lose it, those secrets cannot be restored.
      </p>
      {status.passphraseSet && <p data-field="passphrase">Set {status.passphraseSetAt ? formatDateTime(status.passphraseSetAt) : ''}.</p>}
      {done && <Notice kind="success">Recovery passphrase saved. Backups from now on include the secrets.</Notice>}
      <form className="form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <ErrorBanner error={save.error} />
        {status.passphraseSet && <TextInput label="Current passphrase" type="password" value={current} onChange={(e) => setCurrent(e.target.value)} required autoComplete="current-password" />}
        <TextInput label={status.passphraseSet ? 'New passphrase' : 'Passphrase'} type="password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} minLength={12} required autoComplete="new-password" hint="At least 12 characters; a few unrelated words work well." />
        <TextInput label="Repeat it" type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required autoComplete="new-password" />
        <div>
          <Button type="submit" variant="primary" busy={save.pending}>
            {status.passphraseSet ? 'Change passphrase' : 'Set passphrase'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Import business: upload its export, see what it holds (nothing written), then import it. */
function ImportCard() {
  const session = useSession();
  const [upload, setUpload] = useState<ImportUpload | null>(null);
  const [imported, setImported] = useState<ImportResult | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [inputKey, setInputKey] = useState(0);
  const check = useAction(async (file: File) => {
    setUpload(null);
    setImported(null);
    setUpload(await uploadArchive<ImportUpload>('/api/backups/import/uploads', file));
  });
  const runImport = useAction(async () => {
    if (!upload) return;
    const result = await api.post<ImportResult>('/api/backups/import', { upload: upload.upload, ...(passphrase ? { passphrase } : {}) });
    setImported(result);
    setUpload(null);
    setPassphrase('');
    setInputKey((k) => k + 1);
    await session.refresh();
  });
  const r = upload?.report;
  return (
    <Card title="Import a business">
      <p className="muted" style={{ marginTop: 0 }}>
        Bring a business exported from another Bureau install onto this one, with its ids, files and (with that install&apos;s recovery passphrase) its secrets. A business this install already has is not imported twice.
      </p>
      <ErrorBanner error={check.error} />
      <Field label="Exported business file" hint="A .bureau-export file (Export business on the other install).">
        {(id) => <input key={inputKey} id={id} type="file" accept=".bureau-export,.tar,application/x-tar" data-import="file" disabled={check.pending || runImport.pending} onChange={(e) => e.target.files?.[0] && void check.run(e.target.files[0])} />}
      </Field>
      {check.pending && <p className="muted">Uploading and checking the export…</p>}
      {r && (
        <form className="form" data-import="dry-run" onSubmit={(e) => (e.preventDefault(), void runImport.run())}>
          <Notice kind="info">
            <span>
              <strong>{r.entity.name}</strong>: {r.tables.helpdesk_tickets ?? 0} tickets, {r.tables.ledger_events ?? 0} ledger events, {r.tables.documents ?? 0} documents, {r.files} files; {r.members.added} people
              {r.members.skipped.length ? ` (${r.members.skipped.length} already here under another account: not added)` : ''}. Secrets: {r.secrets.inExport ? 'in the export' : 'not in the export'}. Nothing is written until you import it.
            </span>
          </Notice>
          <ErrorBanner error={runImport.error} />
          {r.secrets.inExport && (
            <TextInput label="Recovery passphrase of the exporting install" type="password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} autoComplete="off" hint="Optional: without it, everything but the keys, passwords and tokens is imported." />
          )}
          <div>
            <Button type="submit" variant="primary" busy={runImport.pending}>
              Import {r.entity.name}
            </Button>
          </div>
        </form>
      )}
      {imported && (
        <Notice kind="success">
          <span data-import="done">
            Imported {imported.entity.name}
            {imported.secrets.missing.length ? ` without its secrets (${imported.secrets.missing.join(', ')})` : imported.secrets.restored ? ` with ${imported.secrets.restored} secret(s)` : ''}. Switch to it from the business menu.
          </span>
        </Notice>
      )}
    </Card>
  );
}
