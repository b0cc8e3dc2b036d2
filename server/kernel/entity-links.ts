// What business modules ask of an entity's link to a hosted instance (is it linked, as which
// account and role, where are its public pages) and how they call that instance. Sync holds the
// links; the app registers sync's answers (server/modules.ts), so no module imports sync.
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { definePort } from './port.js';

/** An entity's link to its hosted instance, as this device holds it. */
export interface EntityLink {
  hostedUrl: string;
  /** Where the hosted instance serves public pages (signing links), when it does. */
  publicUrl: string | null;
  /** This device's account on the hosted instance, and its role in the entity there. */
  accountId: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
}

export interface EntityLinks {
  /** The entity's link, or null when it is not linked; read in `db` (a transaction or the database). */
  linkOf(db: Queryable, entityId: string): EntityLink | null;
  /** This device's role in the linked entity follows its account's (a pull changed it). */
  setLinkRole(tx: Queryable, entityId: string, role: EntityLink['role']): void;
  /** This device's sync node id, once sync gave it one. */
  deviceNode(db: Queryable): string | null;
  /** Sync reads the links again (a restore replaced the database under it). */
  reload(ctx: Context): void;
  /** A call to the hosted instance's `/sync/v1` with the device's token; a refusal throws. */
  callHosted<T extends z.ZodType>(base: string, method: string, path: string, opts: { token: string; body?: unknown; schema?: T }): Promise<z.output<T>>;
  /** The hosted instance's HTTP status of a refused call (0: unreachable); undefined for any other error. */
  hostedStatusOf(err: unknown): number | undefined;
}

/** The registered links: without them a module could not tell a linked entity from another, so it fails. */
const port = definePort<EntityLinks>("entity links (server/modules.ts registers the sync module's)");
export const registerEntityLinks = port.register;
export const entityLinks = port.get;
