import { useState } from 'react';
import { client, invalidateEntity, unwrap, useEntityQuery, type Schema } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, EmptyState, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { formatDateTime, formatRelative, useAction } from '../../ui/hooks';
import { CreateKeyModal, type CreatedKey } from './CreateKeyModal';

type ApiKey = Schema<'ApiKey'>;

export function ApiKeysSection() {
  const session = useSession();
  const keys = useEntityQuery(['api-keys'], () => unwrap(client.GET('/api/settings/api-keys')));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const revoke = useAction(async (keyId: string) => {
    await unwrap(client.DELETE('/api/settings/api-keys/{keyId}', { params: { path: { keyId } } }));
    await invalidateEntity('api-keys');
  });
  if (!session.can('SETTINGS.MANAGE')) return <Notice kind="warning">Only owners and admins can manage API keys.</Notice>;
  return (
    <div className="stack">
      {created && <CreatedKeyNotice created={created} onDone={() => setCreated(null)} />}
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
        <ErrorBanner error={keys.error?.message ?? revoke.error} onRetry={keys.error ? () => void keys.refetch() : undefined} />
        {keys.isPending ? (
          <Spinner />
        ) : keys.data?.length === 0 ? (
          <EmptyState icon="🔑" title="No API keys yet" action={<Button onClick={() => setCreating(true)}>Create your first key</Button>}>
            Create a key for each integration so you can revoke one without affecting the others.
          </EmptyState>
        ) : (
          <ApiKeysTable keys={keys.data ?? []} onRevoke={(k) => confirm(`Revoke “${k.name}”? Integrations using it stop working at once.`) && void revoke.run(k.id)} />
        )}
      </Card>
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreated(k);
            setCreating(false);
            void invalidateEntity('api-keys');
          }}
        />
      )}
    </div>
  );
}

/** The key just made, shown this once. */
function CreatedKeyNotice({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <Notice kind="success">
      <div className="stack" style={{ width: '100%', gap: 8 }}>
        <strong>Key “{created.name}” created. Copy it now — it will not be shown again.</strong>
        <CopyField value={created.key} label="Your new API key" />
        <div>
          <Button variant="ghost" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </Notice>
  );
}

function ApiKeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (k: ApiKey) => void }) {
  return (
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
          {keys.map((k) => (
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
                  <Button variant="danger" onClick={() => onRevoke(k)}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
