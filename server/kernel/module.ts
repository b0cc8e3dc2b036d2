// What a business module hands the app (server/modules.ts composes them): the kernel's type, so a
// module's index.ts declares itself without importing the composition root or sync.
import type { Context } from '../context.js';
import type { RouteDef } from '../http/route.js';
import type { Tx } from '../db/tx.js';
import type { EventDefinitions } from '../events/catalogue.js';
import type { TablePolicies } from './sync-policy.js';

/**
 * A change of one row as the sync log delivers it to a module's hooks (its wire form is
 * sync/protocol.ts's `loggedChangeSchema`; the engine's calls check the two agree).
 */
export interface LoggedChange {
  id: string;
  table: string;
  rowId: string;
  op: 'upsert' | 'fact' | 'transition';
  columns: Record<string, string | number | boolean | null>;
  expect?: Record<string, string | number | boolean | null>;
  hlc: string;
  schemaVersion: number;
  group?: string;
  seq: number;
  deviceId: string;
}

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
