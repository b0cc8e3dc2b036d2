import { Button, Card, ErrorBanner } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { syncApi } from './sync-api';
import type { LinkedStatus } from './types';
import { publishSyncStatus } from './useSyncStatus';
import { clockWords, describeSync, progressWords } from './words';

/** The link's state in words, where it points, and "Sync now". */
export function StatusCard({ entityId, status }: { entityId: string; status: LinkedStatus }) {
  const words = describeSync(status);
  const progress = progressWords(status);
  const clock = clockWords(status);
  const run = useAction(async () => publishSyncStatus(entityId, await syncApi.run(entityId)));
  return (
    <Card
      title="Status"
      actions={
        <Button variant="primary" onClick={() => void run.run()} busy={run.pending} disabled={status.state === 'revoked'}>
          Sync now
        </Button>
      }
    >
      <ErrorBanner error={run.error} />
      <div className="sync-state" data-state={status.state}>
        <span className={`sync-dot sync-dot-${words.tone}`} aria-hidden />
        <div>
          <div className="sync-headline">{words.headline}</div>
          {words.detail && <div className="muted">{words.detail}</div>}
          {status.state !== 'error' && status.state !== 'revoked' && status.lastError && <div className="muted">Last error: {status.lastError}</div>}
          {progress && <progress className="sync-progress" max={100} value={progress.percent} aria-label={progress.long} />}
        </div>
      </div>
      {status.readOnly && (
        <div className="sync-warning" role="status">
          Read-only on this device: the hosted instance needs a newer Bureau. Update the app to change this entity's data again.
        </div>
      )}
      {clock && (
        <div className="sync-warning" role="status">
          {clock}
        </div>
      )}
      <dl className="sync-facts">
        <dt>Hosted instance</dt>
        <dd>
          <code>{status.hostedUrl}</code>
        </dd>
        <dt>Your role there</dt>
        <dd>{status.role}</dd>
        <dt>Linked</dt>
        <dd>{formatDateTime(status.linkedAt)}</dd>
        <dt>Last sync</dt>
        <dd>{status.lastSyncAt ? formatDateTime(status.lastSyncAt) : 'Never'}</dd>
        <dt>Waiting</dt>
        <dd>{status.waiting === 0 ? 'Nothing' : `${status.waiting} local ${status.waiting === 1 ? 'change' : 'changes'}`}</dd>
      </dl>
    </Card>
  );
}
