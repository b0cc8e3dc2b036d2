import { useNavigate } from 'react-router';
import { useSession } from '../../session';
import { useSyncStatus } from './useSyncStatus';
import { clockWords, describeSync } from './words';
import './sync.css';

/** Top bar: the entity's sync state when it is linked; owners and admins click through to Settings → Sync. */
export function SyncPill() {
  const session = useSession();
  const navigate = useNavigate();
  const { status } = useSyncStatus(session.entity?.id);
  if (!status?.linked) return null;
  const words = describeSync(status);
  const clock = clockWords(status);
  const label = `Sync status: ${words.headline}${clock ? `. ${clock}` : ''}`;
  const body = (
    <>
      <span className={`sync-dot sync-dot-${words.tone}`} aria-hidden />
      {words.short}
      {status.waiting > 0 && status.state !== 'synced' && status.state !== 'syncing' && <span className="sync-pill-count">{status.waiting}</span>}
      {clock && (
        <span className="sync-pill-count" title={clock}>
          !
        </span>
      )}
    </>
  );
  if (!session.can('SETTINGS.MANAGE'))
    return (
      <span className={`sync-pill sync-pill-${words.tone}`} title={clock ? `${words.headline}. ${clock}` : words.headline} aria-label={label} role="img">
        {body}
      </span>
    );
  return (
    <button type="button" className={`sync-pill sync-pill-${words.tone}`} title={clock ? `${words.headline}. ${clock}` : words.headline} aria-label={label} onClick={() => navigate('/settings/sync')}>
      {body}
    </button>
  );
}
