import { useSession } from '../../session';
import { useAsync } from '../../ui/hooks';
import { syncApi } from '../sync/sync-api';

/** Who may deliver the entity's webhooks: nobody to choose when it is not linked (this device delivers). */
export function useDeliverers() {
  const session = useSession();
  const entityId = session.entity?.id ?? '';
  const found = useAsync(async () => {
    const status = await syncApi.status(entityId);
    if (!status.linked) return { linked: false as const, thisDevice: null, devices: [] as { id: string; name: string }[] };
    // Only owners and admins list every device; others name the hosted instance or this device.
    const devices = await syncApi.devices(entityId).catch(() => []);
    return { linked: true as const, thisDevice: status.deviceId, devices: devices.map((d) => ({ id: d.id, name: d.name })) };
  }, [entityId]);
  const d = found.data;
  const nameOf = (deliveredBy: string | null): string => {
    if (deliveredBy === null || deliveredBy === d?.thisDevice) return 'This device';
    if (deliveredBy === 'hosted') return 'The hosted instance';
    return d?.devices.find((x) => x.id === deliveredBy)?.name ?? 'Another device';
  };
  return { linked: d?.linked ?? false, thisDevice: d?.thisDevice ?? null, devices: d?.devices ?? [], nameOf };
}
