// The hosted instance's webhook deliverer: attempts due jobs (webhook-jobs.ts) with the retry
// schedule, SSRF guard and signing of the desktop's deliverer, and writes each delivery and
// attempt back to the entity's log as its own changes, so every device shows the delivery log.
// Several processes on one PostgreSQL share the queue: a job is claimed with FOR UPDATE SKIP
// LOCKED and a lease, so only one of them attempts it; after a crash the lease runs out and the
// job is attempted again under the same webhook-id.
import { and, asc, eq, inArray, lt, lte, ne } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { Webhook } from 'standardwebhooks';
import { HttpError } from '../http/errors.js';
import { DELIVERY_TIMEOUT_MS, sendWebhook, type SendResult, DISABLE_AFTER_MS, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs, HOSTED_DELIVERER } from '../webhooks/index.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { mirroredRow, recordHostedChanges, type HostedChange, type RowData } from './mirror.js';
import { webhookJobs } from './schema.js';
import { hostedSecretOf } from './webhook-secrets.js';
import type { EventPayloads } from '../events/catalogue.js';

type Job = typeof webhookJobs.$inferSelect;

const BATCH = 20;
const PARALLEL = 4;
const LEASE_MS = DELIVERY_TIMEOUT_MS + 45_000;
/** A subscription whose secret has not arrived, or that is paused, is looked at again after this. */
const WAIT_MS = 30_000;

export interface HostedWebhooks {
  /** One pass over the due jobs (tests drive it by hand); how many were attempted. */
  deliverDue(): Promise<number>;
  /** A pass now rather than at the next tick (after a commit that queued jobs). */
  wake(): void;
  close(): void;
}

/**
 * Finished jobs are kept 30 days — past the 7-day catch-up, whose re-queueing of an event they keep
 * from sending it twice — then forgotten, at most 1,000 per pass and one pass an hour. The entity's
 * delivery log (its synced rows) is the devices' to keep.
 */
export const JOB_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1_000;

export function startHostedWebhooks(h: HostedContext, opts: { allowLocalTargets: boolean; intervalMs?: number }): HostedWebhooks {
  let running: Promise<number> | null = null;
  let prunedAt = 0;
  const pass = async (): Promise<number> => {
    const attempted = await deliverDueJobs(h, opts.allowLocalTargets);
    if (h.clock.now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = h.clock.now().getTime();
      await pruneFinishedJobs(h);
    }
    return attempted;
  };
  const deliverDue = async (): Promise<number> => {
    while (running) await running.catch(() => undefined);
    running = pass().finally(() => (running = null));
    return running;
  };
  const tick = () => void (running ? undefined : deliverDue().catch((err: unknown) => h.log.warn({ err }, 'hosted webhooks')));
  const timer = setInterval(tick, opts.intervalMs ?? 2_000);
  timer.unref();
  return { deliverDue, wake: () => void setTimeout(tick, 20).unref(), close: () => clearInterval(timer) };
}

const later = (h: HostedContext, ms: number) => new Date(h.clock.now().getTime() + ms).toISOString();

/** Forgets finished jobs past their retention; how many. */
export async function pruneFinishedJobs(h: HostedContext): Promise<number> {
  const old = await h.store.db
    .select({ id: webhookJobs.id })
    .from(webhookJobs)
    .where(and(ne(webhookJobs.status, 'pending'), lt(webhookJobs.updatedAt, later(h, -JOB_RETENTION_MS))))
    .limit(PRUNE_BATCH);
  if (old.length === 0) return 0;
  const gone = await h.store.db.delete(webhookJobs).where(inArray(webhookJobs.id, old.map((j) => j.id))).returning({ id: webhookJobs.id });
  return gone.length;
}

/** Takes due jobs no other process holds, and leases them. */
async function claimDue(h: HostedContext): Promise<Job[]> {
  return h.store.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(webhookJobs)
      .where(and(eq(webhookJobs.status, 'pending'), lte(webhookJobs.nextAttemptAt, serverTime(h))))
      .orderBy(asc(webhookJobs.nextAttemptAt), asc(webhookJobs.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length > 0) await tx.update(webhookJobs).set({ nextAttemptAt: later(h, LEASE_MS) }).where(inArray(webhookJobs.id, due.map((j) => j.id)));
    return due;
  });
}

async function deliverDueJobs(h: HostedContext, allowLocal: boolean): Promise<number> {
  let total = 0;
  for (let due = await claimDue(h); due.length > 0 && !h.closing.aborted; due = due.length === BATCH ? await claimDue(h) : []) {
    total += due.length;
    // One subscription's jobs go in order; a few subscriptions are served side by side.
    const bySub = new Map<string, Job[]>();
    for (const j of due) bySub.set(j.subscriptionId, [...(bySub.get(j.subscriptionId) ?? []), j]);
    const lanes = [...bySub.values()];
    const worker = async () => {
      for (let lane = lanes.shift(); lane; lane = lanes.shift()) for (const job of lane) await attemptJob(h, job, allowLocal).catch((err: unknown) => h.log.warn({ err, jobId: job.id }, 'hosted webhook attempt'));
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, lanes.length) }, worker));
  }
  return total;
}

async function setJob(h: HostedContext, job: Job, set: Partial<Job>): Promise<void> {
  await h.store.db.update(webhookJobs).set({ ...set, updatedAt: serverTime(h) }).where(eq(webhookJobs.id, job.id));
}

async function attemptJob(h: HostedContext, job: Job, allowLocal: boolean): Promise<void> {
  const found = await h.store.db.transaction(async (tx) => {
    const sub = await mirroredRow(tx, job.entityId, 'webhook_subscriptions', job.subscriptionId);
    const secret = sub && typeof sub.secret_version === 'string' ? await hostedSecretOf(h, tx, job.entityId, job.subscriptionId, sub.secret_version) : null;
    return { sub, secret };
  });
  const { sub, secret } = found;
  if (!sub) return setJob(h, job, { status: 'dropped', nextAttemptAt: null, lastError: 'The subscription was deleted' });
  // Handed to a device meanwhile: that device delivers what is left (it catches up on recent events).
  if (sub.delivered_by !== HOSTED_DELIVERER) return setJob(h, job, { status: 'dropped', nextAttemptAt: null, lastError: 'Delivered by a device now' });
  if (!(sub.enabled === 1 || sub.enabled === true)) return setJob(h, job, { nextAttemptAt: later(h, WAIT_MS) });
  if (secret === null) return setJob(h, job, { nextAttemptAt: later(h, WAIT_MS), lastError: 'Waiting for the signing secret from a device' });
  const startedAt = h.clock.now();
  const result = await sendWebhook({
    url: String(sub.url),
    body: job.payload,
    allowLocal,
    headers: { 'webhook-id': job.eventId, 'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(job.eventId, startedAt, job.payload) },
    signal: h.closing,
  });
  if (result.aborted) return setJob(h, job, { nextAttemptAt: serverTime(h) });
  await recordAttempt(h, job, sub, startedAt.toISOString(), result);
}

const isSuccess = (r: SendResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/** What comes after an attempt, on the desktop deliverer's schedule. */
function nextState(h: HostedContext, autoAttempts: number, ok: boolean, result: SendResult): { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: string | null } {
  if (ok) return { status: 'succeeded', nextAttemptAt: null };
  if (result.statusCode === 410) return { status: 'failed', nextAttemptAt: null };
  const delay = retryDelayMs(autoAttempts);
  if (delay === null || autoAttempts >= MAX_ATTEMPTS) return { status: 'failed', nextAttemptAt: null };
  const retryAfter = parseRetryAfter(result.retryAfter, h.clock.now());
  return { status: 'pending', nextAttemptAt: later(h, Math.max(delay, retryAfter ?? 0)) };
}

/** The delivery and its attempt as this instance's changes in the entity's log, the job moved on in the same transaction. */
async function recordAttempt(h: HostedContext, job: Job, sub: RowData, startedAt: string, result: SendResult): Promise<void> {
  const ok = isSuccess(result);
  const attempt = job.attemptCount + 1;
  const autoAttempts = job.autoAttempts + 1;
  const next = nextState(h, autoAttempts, ok, result);
  const now = serverTime(h);
  const lastError = ok ? null : (result.error ?? `HTTP ${result.statusCode}`);
  try {
    await recordHostedChanges(h, job.entityId, async (tx) => {
      const changes: HostedChange[] = [
        {
          table: 'webhook_deliveries',
          rowId: job.id,
          op: 'upsert',
          columns: {
            id: job.id, entity_id: job.entityId, subscription_id: job.subscriptionId, event_id: job.eventId, event_type: job.eventType, payload: job.payload,
            status: next.status, attempt_count: attempt, auto_attempts: autoAttempts, next_attempt_at: next.nextAttemptAt, last_attempt_at: startedAt,
            last_status_code: result.statusCode, last_error: lastError, created_at: new Date(job.createdAt).toISOString(), updated_at: now,
          },
        },
        {
          table: 'webhook_attempts',
          rowId: uuidv7(),
          op: 'fact',
          columns: { entity_id: job.entityId, delivery_id: job.id, attempt, trigger: 'automatic', started_at: startedAt, duration_ms: result.durationMs, status_code: result.statusCode, success: ok ? 1 : 0, error: result.error, response_excerpt: result.responseExcerpt },
        },
        ...endpointHealth(h, job, sub, ok, result, startedAt, now),
      ];
      changes[1].columns.id = changes[1].rowId;
      // Disabled: what else is queued for it fails now (a device can ask for it again by hand).
      if (changes.some((c) => c.table === 'webhook_subscriptions' && c.columns.enabled === 0)) {
        await tx.update(webhookJobs).set({ status: 'failed', nextAttemptAt: null, lastError: 'Endpoint disabled', updatedAt: now }).where(and(eq(webhookJobs.entityId, job.entityId), eq(webhookJobs.subscriptionId, job.subscriptionId), eq(webhookJobs.status, 'pending')));
      }
      await tx.update(webhookJobs).set({ status: next.status, nextAttemptAt: next.nextAttemptAt, attemptCount: attempt, autoAttempts, lastError, updatedAt: now }).where(eq(webhookJobs.id, job.id));
      return { changes, result: undefined };
    });
  } catch (err) {
    // The entity is no longer linked here: nothing to deliver for it.
    if (err instanceof HttpError && err.status === 409) return setJob(h, job, { status: 'dropped', nextAttemptAt: null, lastError: err.message });
    throw err;
  }
}

/** Success clears the failure streak; 410 Gone, or failing for 5 days, disables the endpoint (as the desktop deliverer does). */
function endpointHealth(h: HostedContext, job: Job, sub: RowData, ok: boolean, result: SendResult, startedAt: string, now: string): HostedChange[] {
  const failingSince = typeof sub.failing_since === 'string' ? sub.failing_since : null;
  if (ok) return failingSince ? [{ table: 'webhook_subscriptions', rowId: job.subscriptionId, op: 'upsert', columns: { failing_since: null } }] : [];
  const since = failingSince ?? startedAt;
  let reason: string | null = null;
  if (result.statusCode === 410) reason = 'The endpoint answered 410 Gone';
  else if (h.clock.now().getTime() - Date.parse(since) >= DISABLE_AFTER_MS) reason = `Every attempt has failed since ${since} (5 days)`;
  if (!reason) return failingSince ? [] : [{ table: 'webhook_subscriptions', rowId: job.subscriptionId, op: 'upsert', columns: { failing_since: since } }];
  const eventId = uuidv7();
  return [
    { table: 'webhook_subscriptions', rowId: job.subscriptionId, op: 'upsert', columns: { failing_since: since, enabled: 0, disabled_reason: reason, disabled_at: now, updated_at: now } },
    {
      table: 'entity_events',
      rowId: eventId,
      op: 'fact',
      columns: { id: eventId, entity_id: job.entityId, type: 'webhook.endpoint_disabled', data: JSON.stringify({ subscription: { id: job.subscriptionId, url: String(sub.url) }, reason } satisfies EventPayloads['webhook.endpoint_disabled']), created_at: now, origin: HOSTED_DELIVERER },
    },
  ];
}
