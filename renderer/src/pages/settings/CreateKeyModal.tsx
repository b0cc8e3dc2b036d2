import { useState } from 'react';
import { client, unwrap, type ApiData, type Schema } from '../../api';
import { Button, ErrorBanner, Modal, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';

type Scope = Schema<'ApiKey'>['scopes'][number];
export type CreatedKey = ApiData<'/api/settings/api-keys', 'post'>;

const SCOPES: Scope[] = ['read:documents', 'write:documents', 'read:helpdesk', 'write:helpdesk', 'read:ledger', 'write:ledger', 'read:webhooks', 'write:webhooks', 'read:notifications', 'write:notifications'];

/** A new key: its name, scopes and (optionally) when it expires. */
export function CreateKeyModal({ onClose, onCreated }: { onClose: () => void; onCreated: (k: CreatedKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expiresAt, setExpiresAt] = useState('');
  const create = useAction(async () => {
    const k = await unwrap(
      client.POST('/api/settings/api-keys', {
        body: { name, scopes, ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}) },
      }),
    );
    onCreated(k);
  });
  const toggle = (s: Scope) => setScopes((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
  return (
    <Modal
      title="New API key"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="new-key" busy={create.pending} disabled={scopes.length === 0}>
            Create key
          </Button>
        </>
      }
    >
      <form id="new-key" className="form" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <ErrorBanner error={create.error} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Accounting sync" required />
        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend style={{ fontWeight: 500, fontSize: 13, color: 'var(--text-2)', marginBottom: 6 }}>Scopes</legend>
          <div className="checkbox-list">
            {SCOPES.map((s) => (
              <label key={s} className="checkbox">
                <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
              </label>
            ))}
          </div>
        </fieldset>
        <TextInput label="Expires (optional)" type="date" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} hint="Leave empty for a key that does not expire." />
      </form>
    </Modal>
  );
}
