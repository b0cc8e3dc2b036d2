import { client, setEntityData, unwrap } from '../../api';
import { useSession } from '../../session';
import { Card, ErrorBanner } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { useWebhookSettings } from './webhooks-data';

/** Whether endpoints on this computer or the local network may receive webhooks. */
export function LocalTargetsSetting() {
  const session = useSession();
  const settings = useWebhookSettings();
  const change = useAction(async (value: boolean) => {
    setEntityData(['webhooks', 'settings'], await unwrap(client.PUT('/api/webhook-subscriptions/settings', { body: { allowLocalTargets: value } })));
  });
  if (!settings.data) return null;
  return (
    <Card title="Local integrations">
      <ErrorBanner error={change.error} />
      <label className="checkbox">
        <input type="checkbox" checked={settings.data.allowLocalTargets} disabled={!session.can('SETTINGS.MANAGE') || change.pending} onChange={(e) => void change.run(e.target.checked)} />
        Allow endpoints on this computer and the local network (localhost, 192.168.x.x, …)
      </label>
      <p className="muted" style={{ margin: '8px 0 0' }}>
        {settings.data.source === 'default' ? 'Using the installation default.' : 'Set for this entity.'} Turn this off when the entity is hosted, so webhooks cannot reach internal services.
      </p>
    </Card>
  );
}
