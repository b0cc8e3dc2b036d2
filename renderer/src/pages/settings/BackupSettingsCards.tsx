import { useState } from 'react';
import { client, unwrap, type Schema } from '../../api';
import { Button, Card, ErrorBanner, Notice, TextInput } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';

type BackupStatus = Schema<'BackupStatus'>;

/** Where backups go and how often; automatic backups on or off. */
export function FolderCard({ status, onSaved }: { status: BackupStatus; onSaved: () => Promise<unknown> }) {
  const [folder, setFolder] = useState(status.folder === status.defaultFolder ? '' : status.folder);
  const [hours, setHours] = useState(String(status.intervalHours));
  const save = useAction(async () => {
    await unwrap(client.PUT('/api/backups/settings', { body: { folder: folder.trim() || null, intervalHours: Number(hours) } }));
    await onSaved();
  });
  const toggle = useAction(async () => {
    await unwrap(client.PUT('/api/backups/settings', { body: { enabled: !status.enabled } }));
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

/** The recovery passphrase that lets backups carry this machine's secrets. */
export function PassphraseCard({ status, onSaved }: { status: BackupStatus; onSaved: () => Promise<unknown> }) {
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [current, setCurrent] = useState('');
  const [done, setDone] = useState(false);
  const save = useAction(async () => {
    if (passphrase !== repeat) throw new Error('The two passphrases differ');
    await unwrap(client.POST('/api/backups/passphrase', { body: { passphrase, ...(status.passphraseSet ? { currentPassphrase: current } : {}) } }));
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
