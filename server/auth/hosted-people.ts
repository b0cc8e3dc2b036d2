// The people of a linked entity are its hosted instance's: inviting, changing a role, removing,
// and passwords of accounts it holds go through it. Sync does that (sync/people.ts); the app hands
// it over (server/modules.ts), so auth never imports sync.
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Role } from '../kernel/permissions.js';
import type { addMemberResponse } from './schemas.js';
import { definePort } from '../kernel/port.js';

export type HostedInvitation = NonNullable<z.infer<typeof addMemberResponse>['invitation']>;

export interface HostedPeople {
  /** The hosted instance invites her into the linked entity (it mails the join link); the answer holds the code, once. */
  invite(ctx: Context, entityId: string, input: { email: string; role: Role; name?: string }): Promise<HostedInvitation>;
  changeRole(ctx: Context, entityId: string, userId: string, role: Role): Promise<void>;
  remove(ctx: Context, entityId: string, userId: string): Promise<void>;
  /** Checked here, changed on her hosted account first when she has one, then here. */
  changePassword(ctx: Context, userId: string, input: { currentPassword: string; newPassword: string }): Promise<void>;
  /** Whether a password this device does not know is her new one, changed on another device. */
  passwordChangedElsewhere(ctx: Context, userId: string, password: string): Promise<boolean>;
}

/** The registered people operations: without them a password could not even be changed here, so it fails. */
const port = definePort<HostedPeople>('hosted people (server/modules.ts registers the sync module\'s)');
export const registerHostedPeople = port.register;
export const hostedPeople = port.get;
