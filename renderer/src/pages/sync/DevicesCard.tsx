import { useState } from 'react';
import { Badge, Button, Card, ErrorBanner, Modal, Spinner, TextInput } from '../../ui/components';
import { formatDateTime, formatRelative, useAction, useAsync } from '../../ui/hooks';
import { AddDeviceModal } from './AddDeviceModal';
import { syncApi } from './sync-api';
import type { Device } from './types';

/** The entity's devices on the hosted instance: this one marked, the others revocable. */
export function DevicesCard({ entityId, hostedUrl }: { entityId: string; hostedUrl: string }) {
  const devices = useAsync(() => syncApi.devices(entityId), [entityId]);
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
      <ErrorBanner error={devices.error} onRetry={() => void devices.reload()} />
      {devices.loading && !devices.data ? (
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
            void devices.reload();
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
            void devices.reload();
          }}
        />
      )}
      {revoking && (
        <RevokeModal
          device={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            void devices.reload();
          }}
        />
      )}
    </Card>
  );
}

function RenameModal({ entityId, device, onClose, onRenamed }: { entityId: string; device: Device; onClose: () => void; onRenamed: () => void }) {
  const [name, setName] = useState(device.name);
  const rename = useAction(async () => {
    await syncApi.rename(entityId, device.id, name.trim());
    onRenamed();
  });
  return (
    <Modal
      title="Rename device"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="rename-device" busy={rename.pending}>
            Rename
          </Button>
        </>
      }
    >
      <form id="rename-device" className="form" onSubmit={(e) => (e.preventDefault(), void rename.run())}>
        <ErrorBanner error={rename.error} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required autoFocus hint="Every device of this business lists it by this name." />
      </form>
    </Modal>
  );
}

function RevokeModal({ device, onClose, onRevoked }: { device: Device; onClose: () => void; onRevoked: () => void }) {
  const revoke = useAction(async () => {
    await syncApi.revoke(device.id);
    onRevoked();
  });
  return (
    <Modal
      title="Revoke device"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" onClick={() => void revoke.run()} busy={revoke.pending}>
            Revoke device
          </Button>
        </>
      }
    >
      <div className="stack" style={{ gap: 10 }}>
        <ErrorBanner error={revoke.error} />
        <p style={{ margin: 0 }}>
          <strong>{device.name}</strong>, added {formatDateTime(device.createdAt)}, stops syncing at once: it can no longer send or receive changes.
        </p>
        <p className="muted" style={{ margin: 0 }}>
          What is already on it stays there. To use it again, join it with a new code.
        </p>
      </div>
    </Modal>
  );
}
