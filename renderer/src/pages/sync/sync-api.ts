import { ApiError, client, unwrap } from '../../api';
import type { ConfirmationSent, JoinBody, LinkBody } from './types';

/** The local /api/sync calls the sync pages make. */
export const syncApi = {
  status: (entityId: string) => unwrap(client.GET('/api/sync/status', { params: { query: { entityId } } })),
  link: (body: LinkBody) => unwrap(client.POST('/api/sync/link', { body })),
  run: (entityId: string) => unwrap(client.POST('/api/sync/run', { body: { entityId } })),
  addDeviceCode: (entityId: string) => unwrap(client.POST('/api/sync/devices/code', { body: { entityId } })),
  devices: (entityId: string) => unwrap(client.GET('/api/sync/devices', { params: { query: { entityId } } })),
  revoke: (deviceId: string) => unwrap(client.DELETE('/api/sync/devices/{deviceId}', { params: { path: { deviceId } } })),
  rename: (entityId: string, deviceId: string, name: string) => unwrap(client.PATCH('/api/sync/devices/{deviceId}', { params: { path: { deviceId } }, body: { entityId, name } })),
  join: (body: JoinBody) => unwrap(client.POST('/api/sync/join', { body })),
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
