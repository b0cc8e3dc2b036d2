import { useState } from 'react';
import { Button, ErrorBanner, Modal, TextInput } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { syncApi } from './sync-api';
import type { Device } from './types';

/** A device's name, as every device of the business lists it. */
export function RenameModal({ entityId, device, onClose, onRenamed }: { entityId: string; device: Device; onClose: () => void; onRenamed: () => void }) {
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

/** Revoking a device stops its sync at once; what is on it stays. */
export function RevokeModal({ device, onClose, onRevoked }: { device: Device; onClose: () => void; onRevoked: () => void }) {
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
