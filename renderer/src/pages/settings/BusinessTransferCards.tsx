import { useState } from 'react';
import { client, unwrap, uploadFile, type Schema } from '../../api';
import { useSession } from '../../session';
import { Button, Card, CopyField, ErrorBanner, Field, Notice, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { formatSize } from './format';

/** Export business: one file with this business's data, files and (with the passphrase) secrets. */
export function ExportCard() {
  const session = useSession();
  const [exported, setExported] = useState<Schema<'BusinessExport'> | null>(null);
  const exportBusiness = useAction(async () => setExported(await unwrap(client.POST('/api/backups/export'))));
  return (
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
  );
}

/** Import business: upload its export, see what it holds (nothing written), then import it. */
export function ImportCard() {
  const session = useSession();
  const [upload, setUpload] = useState<Schema<'ImportUpload'> | null>(null);
  const [imported, setImported] = useState<Schema<'BusinessImport'> | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [inputKey, setInputKey] = useState(0);
  const check = useAction(async (file: File) => {
    setUpload(null);
    setImported(null);
    setUpload(await uploadFile('/api/backups/import/uploads', file));
  });
  const runImport = useAction(async () => {
    if (!upload) return;
    const result = await unwrap(client.POST('/api/backups/import', { body: { upload: upload.upload, ...(passphrase ? { passphrase } : {}) } }));
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
