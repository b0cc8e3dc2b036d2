import type { Context } from '../context.js';
import { roleOf, listMembers } from '../auth/index.js';

/** Owners and admins who have an account (invited people without a password are left out). */
export function listAdminIds(ctx: Context, entityId: string): string[] {
  return listMembers(ctx, entityId)
    .filter((m) => (m.role === 'owner' || m.role === 'admin') && !m.pending)
    .map((m) => m.userId);
}

export function isMember(ctx: Context, entityId: string, userId: string): boolean {
  return roleOf(ctx, entityId, userId) !== null;
}
