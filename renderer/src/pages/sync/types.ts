import type { z } from 'zod';
import type { userSchema } from '../../../../server/auth/schemas';
import type { deviceCode, deviceSchema } from '../../../../server/sync/protocol';
import type { joinFromHosted, linkEntityToHosted, syncStatus } from '../../../../server/sync/link';

// Derived from the server: the wire schemas where it exports them (protocol), else what its
// handlers return and take (the route's SyncStatus schema and request bodies are not exported).
export type SyncStatus = ReturnType<typeof syncStatus>;
export type LinkedStatus = Extract<SyncStatus, { linked: true }>;
export type SyncState = LinkedStatus['state'];
export type RejectedChange = LinkedStatus['rejected'][number];
export type AddDeviceCode = z.output<typeof deviceCode>;
export type Device = z.output<typeof deviceSchema> & { current: boolean };
export type LinkBody = Parameters<typeof linkEntityToHosted>[2];
export type JoinBody = Parameters<typeof joinFromHosted>[1];
export interface Joined {
  user: z.output<typeof userSchema>;
  entity: Awaited<ReturnType<typeof joinFromHosted>>['entity'];
}
