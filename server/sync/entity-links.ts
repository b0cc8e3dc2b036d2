// The sync module's answers to what business modules ask of an entity's link (kernel/entity-links.ts),
// registered by the app in server/modules.ts.
import { eq } from 'drizzle-orm';
import type { EntityLinks } from '../kernel/entity-links.js';
import { reloadSyncState } from './engine.js';
import { callHosted, HostedError } from './hosted-client.js';
import { syncLinks, syncNode } from './tables.js';

export const entityLinks: EntityLinks = {
  linkOf: (db, entityId) =>
    db.select({ hostedUrl: syncLinks.hostedUrl, publicUrl: syncLinks.publicUrl, accountId: syncLinks.accountId, role: syncLinks.role }).from(syncLinks).where(eq(syncLinks.entityId, entityId)).get() ?? null,
  setLinkRole: (tx, entityId, role) => void tx.update(syncLinks).set({ role }).where(eq(syncLinks.entityId, entityId)).run(),
  deviceNode: (db) => db.select({ node: syncNode.node }).from(syncNode).where(eq(syncNode.id, 1)).get()?.node ?? null,
  reload: reloadSyncState,
  callHosted: (base, method, path, opts) => callHosted(base, method, path, opts),
  hostedStatusOf: (err) => (err instanceof HostedError ? err.status : undefined),
};
