// Who is asking, as the HTTP layer sees it: the credentials of a request and a member's role. The
// answers come from the auth module's tables; the app registers them (server/modules.ts), so the
// kernel's routes check access without importing a module.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from '../context.js';
import type { Role } from './permissions.js';
import { definePort } from './port.js';

export type Auth =
  | { kind: 'session'; userId: string; sessionId: string; email: string; name: string }
  | { kind: 'apiKey'; keyId: string; entityId: string; scopes: string[]; name: string; prefix: string };

export interface AccessLookup {
  /** The request's credentials (API key bearer or session cookie); a bad API key throws 401. */
  credentialsOf(ctx: Context, method: string, headers: IncomingHttpHeaders): Auth | null;
  /** A member's role in an entity (undefined: not a member); runs on every session request. */
  memberRoleOf(ctx: Pick<Context, 'sqlite'>, entityId: string, userId: string): Role | undefined;
}

/** The registered lookup: without one no request could be authorised, so it fails. */
const port = definePort<AccessLookup>('access lookup (server/modules.ts registers the auth module\'s)');
export const registerAccessLookup = port.register;
export const accessLookup = port.get;
