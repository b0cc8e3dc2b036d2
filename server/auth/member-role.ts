import type { Statement } from 'better-sqlite3';
import type { Context } from '../context.js';
import type { Role } from '../kernel/permissions.js';

const memberRole = new WeakMap<Context['sqlite'], Statement<[string, string], { role: Role }>>();

/**
 * A member's role in an entity (undefined: not a member). Prepared once per database: it runs on
 * every session request (http/entity-scope.ts).
 */
export function memberRoleOf(ctx: Pick<Context, 'sqlite'>, entityId: string, userId: string): Role | undefined {
  let st = memberRole.get(ctx.sqlite);
  if (!st) memberRole.set(ctx.sqlite, (st = ctx.sqlite.prepare<[string, string], { role: Role }>('select role from memberships where entity_id = ? and user_id = ?')));
  return st.get(entityId, userId)?.role;
}
