// What other modules and the kernel use of auth (the module itself is registered in modules.ts).
export { memberRoleOf } from './member-role.js';
export { authRoutes } from './routes.js';
export { roleAllows, ROLES, type Role } from '../kernel/permissions.js';
export { actorOf, credentialsOf } from './authenticate.js';
export { registerHostedPeople, type HostedPeople } from './hosted-people.js';
export type { Auth } from '../kernel/access.js';
export { entityNameOf, getEntity, roleOf } from './entities.js';
export { listMembers, memberAddressesOf } from './members.js';
export type { Permission, Scope } from '../kernel/permissions.js';
/** The entities table for other modules' foreign keys; memberships and users for sync's people rows. */
export { entities, memberships, users } from './tables.js';
export { randomToken, sha256Hex } from './passwords.js';
export { applyPeople, PEOPLE_TABLE, personIdOf } from './people.js';
export { authenticate } from './authenticate.js';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
export { publicUser, startSession } from './accounts.js';
export { emailSchema, invitationCreated, invitationSchema, passwordSchema, userSchema, type InvitationCreated } from './schemas.js';
