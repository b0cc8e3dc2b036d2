import type { Context } from './context.js';
import type { RouteDef } from './http/route.js';
import { authRoutes } from './auth/routes.js';
import { helpdeskModule } from './helpdesk/index.js';
import { notificationsModule } from './notifications/index.js';
import { webhooksModule } from './webhooks/index.js';
import { ledgerModule } from './ledger/index.js';
import { foldersModule } from './folders/index.js';
import { documentsModule } from './documents/index.js';
import { mailModule } from './mail/index.js';
import { walletModule } from './wallet/index.js';
import { createSyncModule } from './sync/index.js';
import { backupModule } from './backup/index.js';
import { searchModule } from './search/index.js';
import { hostedOnly, local, type TablePolicies } from './sync/policy.js';
import type { LoggedChange } from './sync/protocol.js';
import type { Tx } from './db/tx.js';
import { registerEvents, type EventDefinitions } from './events/catalogue.js';

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

/** A business area: its routes, and what it starts (outbox consumers, background loops). */
export interface Module {
  name: string;
  routes: RouteDef[];
  /** The domain event types it records, each with the schema of its payload (its `events.ts`). */
  events?: EventDefinitions;
  start?(ctx: Context): void;
  /** Releases what `start` or the routes acquired (worker threads, child processes). */
  stop?(ctx: Context): Promise<void> | void;
  /**
   * The hosted instance's own changes (a signer on its public pages), just applied here in `tx`:
   * the side effects a device has when it makes such a change itself (events for webhooks,
   * notifications). Each device has them once, for its own subscriptions and people.
   */
  onHostedChanges?(ctx: Context, tx: Tx, entityId: string, changes: LoggedChange[]): void;
  /**
   * Other devices' changes, applied here and committed: live announcements only (an open UI's
   * stream), never writes — what a change causes happened once, on the device where it began.
   */
  onApplied?(ctx: Context, entityId: string, changes: LoggedChange[]): void;
  /**
   * Changes other devices or the hosted instance made, just applied here in `tx` (never this
   * device's own, echoed back): what this device does about them as one of the entity's workers
   * (webhook deliveries it is the deliverer of).
   */
  onPulledChanges?(ctx: Context, tx: Tx, entityId: string, changes: LoggedChange[]): void;
  /** The entity is being linked, in the link's transaction, before its rows are queued: `deviceId` is this device's id in it. */
  onLinking?(ctx: Context, tx: Tx, entityId: string, deviceId: string): void;
  /** Before each push of a linked entity: what must reach the hosted instance outside the log (webhook secrets). */
  beforePush?(ctx: Context, entityId: string, hosted: { url: string; token: string }): Promise<void>;
  /** How each of its tables takes part in sync (every table has one policy). */
  sync?: TablePolicies;
}

// Sync is handed the policies and hooks of every module (itself included) rather than importing this file.
const syncModule = createSyncModule({ policies: () => tablePolicies(), hooks: () => modules });

export const modules: Module[] = [authModule, helpdeskModule, notificationsModule, webhooksModule, ledgerModule, documentsModule, foldersModule, mailModule, walletModule, syncModule, backupModule, searchModule];

// The event catalogue is the modules' events: handed to the kernel once, as the modules load.
for (const m of modules) if (m.events) registerEvents(m.events);

/** Every table's sync policy, from the modules that own them. */
export function tablePolicies(): TablePolicies {
  return Object.assign({}, ...modules.map((m) => m.sync ?? {}));
}
