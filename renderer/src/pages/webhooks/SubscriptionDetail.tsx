import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { client, invalidateEntity, unwrap } from '../../api';
import { useSession } from '../../session';
import { Button, Card, ErrorBanner, Modal, Notice, Spinner } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { reloadDeliveries, subscriptionSaved, useSubscription } from './webhooks-data';
import { usePageTitle } from '../../ui/title';
import { DeliveryLog } from './DeliveryLog';
import { EndpointStatus } from './SubscriptionList';
import { SubscriptionForm } from './SubscriptionForm';
import type { Delivery } from './types';
import { useDeliverers } from './deliverers';

export function SubscriptionDetail() {
  const { subscriptionId = '' } = useParams();
  const session = useSession();
  const deliverers = useDeliverers();
  const navigate = useNavigate();
  const sub = useSubscription(subscriptionId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const canManage = session.can('WEBHOOKS.MANAGE');
  usePageTitle(sub.data ? `${sub.data.description ?? sub.data.url} · Webhooks` : 'Webhooks');
  const toggle = useAction(async (enabled: boolean) => {
    await subscriptionSaved(await unwrap(client.PUT('/api/webhook-subscriptions', { body: { subscriptionId, enabled } })));
  });
  const [testResult, setTestResult] = useState<Delivery | null>(null);
  const sendTest = useAction(async () => {
    setTestResult(null);
    setTestResult(await unwrap(client.POST('/api/webhook-subscriptions/{subscriptionId}/test', { params: { path: { subscriptionId } } })));
    await reloadDeliveries(subscriptionId);
  });
  const remove = useAction(async () => {
    await unwrap(client.DELETE('/api/webhook-subscriptions', { body: { subscriptionId } }));
    await invalidateEntity('webhooks', 'list');
    navigate('/settings/webhooks');
  });
  if (sub.isPending) return <Spinner />;
  if (!sub.data) return <ErrorBanner error={sub.error?.message ?? 'Endpoint not found'} onRetry={() => void sub.refetch()} />;
  const s = sub.data;
  return (
    <div className="stack">
      <div>
        <Link to="/settings/webhooks">← All endpoints</Link>
      </div>
      <Card
        title={<span className="mono">{s.url}</span>}
        actions={
          canManage && (
            <>
              {s.enabled && (
                <Button onClick={() => void sendTest.run()} busy={sendTest.pending}>
                  Send test event
                </Button>
              )}
              <Button onClick={() => setEditing(true)}>Edit</Button>
              <Button onClick={() => void toggle.run(!s.enabled)} busy={toggle.pending}>
                {s.enabled ? 'Disable' : 'Enable'}
              </Button>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          )
        }
      >
        <div className="stack">
          <ErrorBanner error={toggle.error ?? sendTest.error} />
          {testResult && <TestEventResult delivery={testResult} />}
          {!s.enabled && s.disabledReason && <Notice kind="warning">Disabled {formatDateTime(s.disabledAt)}: {s.disabledReason}</Notice>}
          {s.enabled && s.failingSince && <Notice kind="warning">Failing since {formatDateTime(s.failingSince)}. Deliveries are retried; after 5 days of failure the endpoint is disabled.</Notice>}
          <dl className="hd-details wh-meta">
            <dt>Status</dt>
            <dd>
              <EndpointStatus s={s} />
            </dd>
            <dt>Description</dt>
            <dd>{s.description ?? '—'}</dd>
            <dt>Events</dt>
            <dd>{s.events.includes('*') ? 'All events' : s.events.map((e) => <code key={e} style={{ marginRight: 8 }}>{e}</code>)}</dd>
            {deliverers.linked && (
              <>
                <dt>Delivered by</dt>
                <dd>{deliverers.nameOf(s.deliveredBy)}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatDateTime(s.createdAt)}</dd>
          </dl>
        </div>
      </Card>
      <Card title="Delivery log" actions={<Button onClick={() => void reloadDeliveries(s.id)}>Refresh</Button>}>
        <DeliveryLog subscriptionId={s.id} canRetry={canManage && s.enabled} />
      </Card>
      {editing && (
        <SubscriptionForm
          existing={s}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            void subscriptionSaved(saved);
          }}
        />
      )}
      {deleting && (
        <Modal
          title="Delete endpoint?"
          onClose={() => setDeleting(false)}
          footer={
            <>
              <Button onClick={() => setDeleting(false)}>Cancel</Button>
              <Button variant="danger" onClick={() => void remove.run()} busy={remove.pending}>
                Delete endpoint
              </Button>
            </>
          }
        >
          <ErrorBanner error={remove.error} />
          <p>Deliveries to {s.url} stop at once, and its delivery log is deleted.</p>
        </Modal>
      )}
    </div>
  );
}

/** The outcome of "Send test event": what the endpoint answered, as its delivery log records it. */
function TestEventResult({ delivery }: { delivery: Delivery }) {
  const attempt = delivery.attempts.at(-1);
  if (delivery.status === 'pending') return <Notice kind="info">Test event queued: its deliverer sends it when this reaches it (the delivery log below shows the answer).</Notice>;
  if (delivery.status === 'succeeded') return <Notice kind="success">Test event delivered: the endpoint answered HTTP {delivery.lastStatusCode}{attempt ? ` in ${attempt.durationMs} ms` : ''}.</Notice>;
  return <Notice kind="warning">Test event failed: {delivery.lastError ?? 'no answer'}. It is not retried; see the delivery log below.</Notice>;
}
