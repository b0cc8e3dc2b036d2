import { api, ApiError } from '../../api';
import type { AddDeviceCode, ConfirmationSent, Device, JoinBody, Joined, LinkBody, SyncStatus } from './types';

/** The local /api/sync endpoints, typed. */
export const syncApi = {
  status: (entityId: string) => api.get<SyncStatus>('/api/sync/status', { entityId }),
  link: (body: LinkBody) => api.post<SyncStatus | ConfirmationSent>('/api/sync/link', body),
  run: (entityId: string) => api.post<SyncStatus>('/api/sync/run', { entityId }),
  addDeviceCode: (entityId: string) => api.post<AddDeviceCode>('/api/sync/devices/code', { entityId }),
  devices: (entityId: string) => api.get<Device[]>('/api/sync/devices', { entityId }),
  revoke: (deviceId: string) => api.delete<void>(`/api/sync/devices/${deviceId}`),
  rename: (entityId: string, deviceId: string, name: string) => api.patch<Device>(`/api/sync/devices/${deviceId}`, { entityId, name }),
  join: (body: JoinBody) => api.post<Joined | ConfirmationSent>('/api/sync/join', body),
};

/** The hosted instance wants the address confirmed first (202): ask for the mailed code and send again. */
export function isConfirmationSent(answer: unknown): answer is ConfirmationSent {
  return typeof answer === 'object' && answer !== null && (answer as ConfirmationSent).confirmation === 'sent';
}

/** Per-field messages of a 400 validation error (`details: [{path, message}]`), else none. */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !Array.isArray(err.details)) return {};
  return Object.fromEntries((err.details as { path?: unknown; message?: unknown }[]).map((d) => [String(d.path ?? ''), String(d.message ?? '')]));
}
