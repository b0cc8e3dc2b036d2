import { useSession } from '../../session';
import { useDevices, useSyncStatus } from '../sync/useSyncStatus';

/** Who may deliver the entity's webhooks: nobody to choose when it is not linked (this device delivers). */
export function useDeliverers() {
  const session = useSession();
  const entityId = session.entity?.id ?? '';
  const { status } = useSyncStatus(entityId, false);
  const linked = status?.linked === true;
  // Only owners and admins list every device; others name the hosted instance or this device.
  const listed = useDevices(entityId, { enabled: linked });
  const thisDevice = linked ? status.deviceId : null;
  const devices = linked && listed.data ? listed.data.map((d) => ({ id: d.id, name: d.name })) : [];
  const nameOf = (deliveredBy: string | null): string => {
    if (deliveredBy === null || deliveredBy === thisDevice) return 'This device';
    if (deliveredBy === 'hosted') return 'The hosted instance';
    return devices.find((x) => x.id === deliveredBy)?.name ?? 'Another device';
  };
  return { linked, thisDevice, devices, nameOf };
}
