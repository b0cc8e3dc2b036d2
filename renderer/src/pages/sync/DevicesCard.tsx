import { useState } from 'react';
import { invalidateEntity } from '../../api';
import { Badge, Button, Card, ErrorBanner, Spinner } from '../../ui/components';
import { formatDateTime, formatRelative } from '../../ui/hooks';
import { AddDeviceModal } from './AddDeviceModal';
import { RenameModal, RevokeModal } from './DeviceModals';
import { useDevices } from './useSyncStatus';
import type { Device } from './types';

/** The entity's devices on the hosted instance: this one marked, the others revocable. */
export function DevicesCard({ entityId, hostedUrl }: { entityId: string; hostedUrl: string }) {
  const devices = useDevices(entityId);
  const reload = () => void invalidateEntity('sync', 'devices');
  const [adding, setAdding] = useState(false);
  const [revoking, setRevoking] = useState<Device | null>(null);
  const [renaming, setRenaming] = useState<Device | null>(null);
  return (
    <Card
      title="Devices"
      actions={
        <Button onClick={() => setAdding(true)} disabled={!!devices.error}>
          Add a device
        </Button>
      }
    >
      <ErrorBanner error={devices.error?.message} onRetry={() => void devices.refetch()} />
      {devices.isPending ? (
        <Spinner />
      ) : (
        devices.data && (
          <div className="table-wrap">
            <table className="table" aria-label="Devices">
              <thead>
                <tr>
                  <th>Device</th>
                  <th>Added</th>
                  <th>Last seen</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {devices.data.map((d) => (
                  <tr key={d.id} data-device-id={d.id}>
                    <td>
                      <strong>{d.name}</strong> {d.current && <Badge tone="blue">This device</Badge>}
                    </td>
                    <td className="muted">{formatDateTime(d.createdAt)}</td>
                    <td className="muted">{d.lastSeenAt ? formatRelative(d.lastSeenAt) : 'Never'}</td>
                    <td>{d.revokedAt ? <Badge tone="red">Revoked</Badge> : <Badge tone="green">Active</Badge>}</td>
                    <td style={{ textAlign: 'right' }}>
                      {!d.revokedAt && <Button onClick={() => setRenaming(d)}>Rename</Button>}{' '}
                      {!d.current && !d.revokedAt && (
                        <Button variant="danger" onClick={() => setRevoking(d)}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      )}
      {adding && (
        <AddDeviceModal
          entityId={entityId}
          hostedUrl={hostedUrl}
          onClose={() => {
            setAdding(false);
            reload();
          }}
        />
      )}
      {renaming && (
        <RenameModal
          entityId={entityId}
          device={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={() => {
            setRenaming(null);
            reload();
          }}
        />
      )}
      {revoking && (
        <RevokeModal
          device={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            reload();
          }}
        />
      )}
    </Card>
  );
}
