import { useState } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, EmptyState, ErrorBanner, Modal, Notice, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, formatRelative, useAction, useAsync } from '../../ui/hooks';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const SCOPES = ['read:documents', 'write:documents', 'read:helpdesk', 'write:helpdesk', 'read:ledger', 'write:ledger', 'read:webhooks', 'write:webhooks', 'read:notifications', 'write:notifications'];

export function ApiKeysSection() {
  const session = useSession();
  const keys = useAsync(() => api.get<ApiKey[]>('/api/settings/api-keys'));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null);
  const revoke = useAction(async (id: string) => {
    await api.delete(`/api/settings/api-keys/${id}`);
    await keys.reload();
  });
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage API keys.</Notice>;
  return (
    <div className="stack">
      {created && (
        <Notice kind="success">
          <div className="stack" style={{ width: '100%', gap: 8 }}>
            <strong>Key “{created.name}” created. Copy it now — it will not be shown again.</strong>
            <CopyField value={created.key} label="Your new API key" />
            <div>
              <Button variant="ghost" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        </Notice>
      )}
      <Card
        title="API keys"
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New API key
          </Button>
        }
      >
        <p className="muted" style={{ marginTop: 0 }}>
          Local integrations call <code>http://127.0.0.1</code> with <code>Authorization: Bearer ak_…</code>. A key works only for <strong>{session.entity?.name}</strong> and only within its scopes.
        </p>
        <ErrorBanner error={keys.error ?? revoke.error} onRetry={keys.error ? () => void keys.reload() : undefined} />
        {keys.loading && !keys.data ? (
          <Spinner />
        ) : keys.data?.length === 0 ? (
          <EmptyState icon="🔑" title="No API keys yet" action={<Button onClick={() => setCreating(true)}>Create your first key</Button>}>
            Create a key for each integration so you can revoke one without affecting the others.
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="API keys">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Scopes</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.data?.map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <td>
                      <strong>{k.name}</strong>
                      <div className="muted">Created {formatDateTime(k.createdAt)}</div>
                    </td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td style={{ maxWidth: 280 }}>
                      <div className="row" style={{ gap: 4 }}>
                        {k.scopes.map((s) => (
                          <Badge key={s} tone={s.startsWith('write') ? 'amber' : 'blue'}>
                            {s}
                          </Badge>
                        ))}
                      </div>
                    </td>
                    <td className="muted">{k.lastUsedAt ? formatRelative(k.lastUsedAt) : 'Never'}</td>
                    <td>{k.revokedAt ? <Badge tone="red">Revoked</Badge> : k.expiresAt && k.expiresAt < new Date().toISOString() ? <Badge tone="amber">Expired</Badge> : <Badge tone="green">Active</Badge>}</td>
                    <td style={{ textAlign: 'right' }}>
                      {!k.revokedAt && (
                        <Button variant="danger" onClick={() => confirm(`Revoke “${k.name}”? Integrations using it stop working at once.`) && void revoke.run(k.id)}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreated(k);
            setCreating(false);
            void keys.reload();
          }}
        />
      )}
    </div>
  );
}

function CreateKeyModal({ onClose, onCreated }: { onClose: () => void; onCreated: (k: ApiKey & { key: string }) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiresAt, setExpiresAt] = useState('');
  const create = useAction(async () => {
    const k = await api.post<ApiKey & { key: string }>('/api/settings/api-keys', {
      name,
      scopes,
      ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
    });
    onCreated(k);
  });
  const toggle = (s: string) => setScopes((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
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
