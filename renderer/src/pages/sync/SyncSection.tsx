import { useSession } from '../../session';
import { ErrorBanner, Notice, Spinner } from '../../ui/components';
import { DevicesCard } from './DevicesCard';
import { LinkForm } from './LinkForm';
import { RejectedCard } from './RejectedCard';
import { StatusCard } from './StatusCard';
import { useSyncStatus } from './useSyncStatus';
import { usePageTitle } from '../../ui/title';
import './sync.css';

/** Settings → Sync: link the entity to a hosted instance; once linked, its state, devices and rejected changes. */
export function SyncSection() {
  const session = useSession();
  const entityId = session.entity?.id;
  const { status, error, reload } = useSyncStatus(entityId);
  usePageTitle('Sync');
  if (!session.can('SETTINGS.MANAGE') || !entityId) return <Notice kind="warning">Only owners and admins can manage sync.</Notice>;
  if (!status) return error ? <ErrorBanner error={error} onRetry={() => void reload()} /> : <Spinner />;
  if (!status.linked) return <LinkForm entityId={entityId} />;
  return (
    <div className="stack">
      <StatusCard entityId={entityId} status={status} />
      {status.state !== 'revoked' && <DevicesCard entityId={entityId} hostedUrl={status.hostedUrl} />}
      <RejectedCard rejected={status.rejected} />
    </div>
  );
}
