// What other modules and the kernel use of auth (the module itself is registered in modules.ts).
export { memberRoleOf } from './member-role.js';
export { roleAllows, type Role } from './permissions.js';
export type { Auth } from './authenticate.js';
export { roleOf } from './entities.js';
export type { Permission, Scope } from './permissions.js';
export { entities, memberships, users } from './tables.js';
export { applyPeople, PEOPLE_TABLE, personIdOf } from './people.js';
export { authenticate } from './authenticate.js';
export { burnPasswordCheck, hashPassword, randomToken, sha256Hex, verifyPassword } from './passwords.js';
export { publicUser, startSession } from './accounts.js';
export { emailSchema, passwordSchema, userSchema } from './schemas.js';
