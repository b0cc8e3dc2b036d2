import type { Context } from '../context.js';
import { roleOf, listMembers } from '../auth/index.js';
import { BadRequestError } from '../http/errors.js';

/** The display name of a member, or null when the user is not a member of the entity. */
export function memberName(ctx: Context, entityId: string, userId: string): string | null {
  if (!roleOf(ctx, entityId, userId)) return null;
  return listMembers(ctx, entityId, { withRemoved: true }).find((m) => m.userId === userId)?.name ?? null;
}

/** `assignedTo` must name a member of the entity. */
export function assertAssignable(ctx: Context, entityId: string, userId: string): string {
  const name = memberName(ctx, entityId, userId);
  if (name === null) throw new BadRequestError('assignedTo: must be a member of this entity');
  return name;
}
