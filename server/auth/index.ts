// What other modules and the kernel use of auth (the module itself is registered in modules.ts).
export { memberRoleOf } from './member-role.js';
export { roleAllows, ROLES, type Role } from '../kernel/permissions.js';
export { actorOf, credentialsOf } from './authenticate.js';
export { registerHostedPeople, type HostedPeople } from './hosted-people.js';
export type { Auth } from '../kernel/access.js';
export { entityNameOf, getEntity, roleOf } from './entities.js';
export { listMembers, memberAddressesOf } from './members.js';
export type { Permission, Scope } from '../kernel/permissions.js';
/** The entities table, for other modules' foreign keys (their rows go with the entity). */
export { entities } from './tables.js';
export { randomToken, sha256Hex } from './passwords.js';
