// The device's sync loop while it runs: local changes go up within a tick (250 ms) of being
// written, and a long-poll per linked entity hears of other devices' changes the moment the
// hosted instance commits them — a change propagates between two online devices in well under
// two seconds, with no request per second while nothing happens.
import type { Context } from '../context.js';
import { syncLinks } from './tables.js';
import { runCycle } from './engine.js';
import { deviceToken, engineOf, linkOf } from './engine-state.js';
import { callHosted } from './hosted-client.js';
import { MAX_PULL_WAIT_MS, pullPage } from './protocol.js';
import { waitingChanges } from './waiting.js';

export const LIVE_TICK_MS = 250;

/** A revoked device or an outdated one does not fix itself by retrying (an update restarts the process, which tries once). */
const STUCK = new Set([401, 426]);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Waits on the hosted log of one entity (a 1-change long-poll from the cursor: it only says that
 * something arrived) and runs a cycle when it answers with something. Ends when the entity is
 * unlinked, the device is stuck (revoked, update required) or the server stops.
 */
async function listen(ctx: Context, entityId: string): Promise<void> {
  const engine = engineOf(ctx);
  const stop = ctx.loops.signal;
  while (!stop.aborted) {
    const link = linkOf(ctx, entityId);
    if (!link || (link.lastErrorStatus !== null && STUCK.has(link.lastErrorStatus))) return;
    const backoff = engine.backoff.get(entityId);
    // Failing (offline, refused): the tick's cycles retry with backoff; listening resumes once one works.
    if (link.lastErrorStatus !== null || (backoff && backoff.nextAt > Date.now())) {
      await sleep(Math.max(LIVE_TICK_MS, (backoff?.nextAt ?? 0) - Date.now()), stop);
      continue;
    }
    try {
      const page = await callHosted(link.hostedUrl, 'GET', `/sync/v1/pull?cursor=${link.cursor}&limit=1&waitMs=${MAX_PULL_WAIT_MS}`, {
        token: deviceToken(ctx, link),
        schema: pullPage,
        timeoutMs: MAX_PULL_WAIT_MS + 15_000,
        signal: stop,
      });
      if (page.changes.length > 0 || page.mustRefetch) await runCycle(ctx, entityId);
    } catch {
      if (stop.aborted) return;
      // The cycle records why (offline, revoked, …) and sets the backoff the loop above honours.
      await runCycle(ctx, entityId);
    }
  }
}

function ensureListener(ctx: Context, entityId: string): void {
  const engine = engineOf(ctx);
  if (engine.listeners.has(entityId)) return;
  const running = listen(ctx, entityId)
    .catch((err: unknown) => ctx.log.error({ err, entityId }, 'sync listener failed'))
    .finally(() => engine.listeners.delete(entityId));
  engine.listeners.set(entityId, running);
}

/**
 * One tick of the loop: for each linked entity, push what waits (or retry a failing one once its
 * backoff has passed), and keep its listener going. Stuck links are tried once per process start.
 */
export async function tickLive(ctx: Context): Promise<void> {
  const engine = engineOf(ctx);
  const links = ctx.db.select({ entityId: syncLinks.entityId, lastErrorStatus: syncLinks.lastErrorStatus }).from(syncLinks).all();
  const due: Promise<void>[] = [];
  for (const l of links) {
    const stuck = l.lastErrorStatus !== null && STUCK.has(l.lastErrorStatus);
    if (stuck && engine.backoff.has(l.entityId)) continue;
    if ((engine.backoff.get(l.entityId)?.nextAt ?? 0) > Date.now()) continue;
    if (engine.running.has(l.entityId)) continue;
    // Never synced since this process started, failing, or changes waiting: a cycle now.
    const started = engine.listeners.has(l.entityId);
    if (!started || l.lastErrorStatus !== null || waitingChanges(ctx, l.entityId) > 0) due.push(runCycle(ctx, l.entityId));
    if (!stuck && ctx.config.backgroundLoops) ensureListener(ctx, l.entityId);
  }
  await Promise.all(due);
}

/** At shutdown (after the loops stopped): waits for the listeners and any cycle they started, so none outlives the database. */
export async function stopLive(ctx: Context): Promise<void> {
  const engine = engineOf(ctx);
  await Promise.allSettled([...engine.listeners.values()]);
  await Promise.allSettled([...engine.running.values()]);
}
