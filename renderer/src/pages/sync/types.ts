import type { ApiBody, ApiData, Schema } from '../../api';

// The server's own types (generated from its OpenAPI document).
export type SyncStatus = Schema<'SyncStatus'>;
export type LinkedStatus = Extract<SyncStatus, { linked: true }>;
export type SyncState = LinkedStatus['state'];
export type RejectedChange = LinkedStatus['rejected'][number];
export type AddDeviceCode = ApiData<'/api/sync/devices/code', 'post'>;
export type Device = ApiData<'/api/sync/devices'>[number];
export type LinkBody = ApiBody<'/api/sync/link'>;
export type JoinBody = ApiBody<'/api/sync/join'>;
export type Joined = Exclude<ApiData<'/api/sync/join', 'post'>, ConfirmationSent>;
/** 202 of link and join: a code went to `email`; the same request again with `confirmationCode`. */
export type ConfirmationSent = Schema<'ConfirmationSent'>;
