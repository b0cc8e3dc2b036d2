import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../session';
import { Badge, Button, Card, CopyField, EmptyState, ErrorBanner, Modal, Notice, Spinner } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { LocalTargetsSetting } from './LocalTargetsSetting';
import { SubscriptionForm } from './SubscriptionForm';
import type { Subscription } from './types';
import { useSubscriptions } from './webhooks-data';
import { invalidateEntity } from '../../api';

export function EndpointStatus({ s }: { s: Subscription }) {
  if (!s.enabled) return <Badge tone="red">Disabled</Badge>;
  if (s.failingSince) return <Badge tone="amber">Failing</Badge>;
  return <Badge tone="green">Active</Badge>;
}

export function SubscriptionList() {
  const session = useSession();
  const navigate = useNavigate();
  const list = useSubscriptions();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<(Subscription & { secret?: string }) | null>(null);
  const canManage = session.can('WEBHOOKS.MANAGE');
  usePageTitle('Webhooks');
  return (
    <div className="stack">
      <Card
        title="Webhook endpoints"
        actions={
          canManage && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              Add endpoint
            </Button>
          )
        }
      >
        <p className="muted" style={{ marginTop: 0 }}>
          Bureau POSTs events to your endpoints, signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), and retries failures for about 28 hours.
        </p>
        <ErrorBanner error={list.error?.message} onRetry={() => void list.refetch()} />
        {list.isPending ? (
          <Spinner />
        ) : !list.data?.length ? (
          <EmptyState title="No endpoints yet" icon="⇄">
            Add an endpoint to send ticket and notification events to another system.
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Events</th>
                <th>Status</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id} className="clickable" onClick={() => navigate(`/settings/webhooks/${s.id}`)}>
                  <td>
                    <Link className="mono" to={`/settings/webhooks/${s.id}`} onClick={(e) => e.stopPropagation()}>
                      {s.url}
                    </Link>
                    {s.description && <div className="muted">{s.description}</div>}
                  </td>
                  <td>{s.events.includes('*') ? 'All events' : `${s.events.length} event type${s.events.length === 1 ? '' : 's'}`}</td>
                  <td>
                    <EndpointStatus s={s} />
                  </td>
                  <td className="muted">{formatDateTime(s.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <LocalTargetsSetting />
      {creating && (
        <SubscriptionForm
          onClose={() => setCreating(false)}
          onSaved={(s) => {
            setCreating(false);
            setCreated(s);
            void invalidateEntity('webhooks', 'list');
          }}
        />
      )}
      {created?.secret && (
        <Modal title="Endpoint added" onClose={() => setCreated(null)} footer={<Button variant="primary" onClick={() => setCreated(null)}>Done</Button>}>
          <div className="form">
            <Notice kind="warning">Copy the signing secret now: it is shown only once. Your endpoint uses it to verify each delivery.</Notice>
            <CopyField label="Signing secret" value={created.secret} />
          </div>
        </Modal>
      )}
    </div>
  );
}
