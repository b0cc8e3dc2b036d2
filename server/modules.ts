import { authRoutes, credentialsOf, memberRoleOf, registerHostedPeople } from './auth/index.js';
import { changePassword, changeRoleThroughHosted, inviteThroughHosted, passwordChangedElsewhere, removeThroughHosted } from './sync/people.js';
import { registerAccessLookup } from './kernel/access.js';
import { registerEntityLinks } from './kernel/entity-links.js';
import { entityLinks } from './sync/entity-links.js';
import { helpdeskModule } from './helpdesk/index.js';
import { notificationsModule } from './notifications/index.js';
import { webhooksModule } from './webhooks/index.js';
import { ledgerModule } from './ledger/index.js';
import { foldersModule, registerFolderContents } from './folders/index.js';
import { documentsInFolders, documentsModule } from './documents/index.js';
import { mailModule } from './mail/index.js';
import { walletModule } from './wallet/index.js';
import { createSyncModule } from './sync/index.js';
import { backupModule } from './backup/index.js';
import { searchModule } from './search/index.js';
import { hostedOnly, local, registerSchemaTables, registerTablePolicies, type TablePolicies } from './kernel/sync-policy.js';
import * as schema from './schema.js';
import type { Module } from './kernel/module.js';
import { registerEvents } from './events/catalogue.js';

const authModule: Module = {
  name: 'auth',
  routes: authRoutes,
  sync: {
    users: local('people of this install; members of other installs come from the hosted instance'),
    sessions: local('sign-ins on this device'),
    api_keys: local('keys for local integrations of this device'),
    login_failures: local('sign-in throttle of this device'),
    entities: local('created on join from the hosted instance'),
    memberships: local('roles are held by the hosted instance; a joined device gets its own'),
    invitations: local('invitation tokens of this install'),
    entity_people: hostedOnly,
  },
};

// Sync is handed the policies and hooks of every module (itself included) rather than importing this file.
const syncModule = createSyncModule({ policies: () => tablePolicies(), hooks: () => modules });

export const modules: Module[] = [authModule, helpdeskModule, notificationsModule, webhooksModule, ledgerModule, documentsModule, foldersModule, mailModule, walletModule, syncModule, backupModule, searchModule];

// The kernel's routes authorise through the auth module's credentials and roles, handed over here.
registerAccessLookup({ credentialsOf, memberRoleOf });
// Modules ask of an entity's link to a hosted instance through the kernel; sync answers.
registerEntityLinks(entityLinks);
// The people of a linked entity are its hosted instance's: auth changes them through sync.
registerHostedPeople({ invite: inviteThroughHosted, changeRole: changeRoleThroughHosted, remove: removeThroughHosted, changePassword, passwordChangedElsewhere });

// Folders hold documents: the documents module's placement, handed over here so neither imports the other's files.
registerFolderContents(documentsInFolders);

// Sync policies are checked against, and sync reads, the app's tables: handed to the kernel here.
registerSchemaTables(schema);

// The event catalogue is the modules' events: handed to the kernel once, as the modules load.
for (const m of modules) if (m.events) registerEvents(m.events);

/** Every table's sync policy, from the modules that own them. */
export function tablePolicies(): TablePolicies {
  return Object.assign({}, ...modules.map((m) => m.sync ?? {}));
}
registerTablePolicies(tablePolicies);
