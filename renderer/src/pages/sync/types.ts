import type { z } from 'zod';
import type { userSchema } from '../../../../server/auth/schemas';
import type { confirmationSent, deviceCode, deviceSchema } from '../../../../server/sync/protocol';
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
  entity: Extract<Awaited<ReturnType<typeof joinFromHosted>>, { entity: unknown }>['entity'];
}
/** 202 of link and join: a code went to `email`; the same request again with `confirmationCode`. */
export type ConfirmationSent = z.output<typeof confirmationSent>;
