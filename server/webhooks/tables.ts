import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';

export const webhookSubscriptions = sqliteTable(
  'webhook_subscriptions',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    url: text('url').notNull(),
    events: text('events', { mode: 'json' }).notNull().$type<string[]>(),
    /**
     * Which secret is in force: the secret itself never syncs (it is in `webhook_secrets` on the
     * devices that hold it, and sealed on the hosted instance); a rotation makes a new version.
     */
    secretVersion: text('secret_version').notNull(),
    /**
     * Who delivers: `hosted` (the hosted instance), a device id (that device), or null while the
     * entity is not linked (this install; linking names this device).
     */
    deliveredBy: text('delivered_by'),
    description: text('description'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    disabledReason: text('disabled_reason'),
    disabledAt: text('disabled_at'),
    /** First failed attempt since the last success; null while healthy. */
    failingSince: text('failing_since'),
    metadata: text('metadata', { mode: 'json' }).notNull().$type<Record<string, string>>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('webhook_subscriptions_entity_idx').on(t.entityId, t.createdAt)],
);

/** One message (an outbox event) to one endpoint; its id stays the same across retries. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact JSON body sent (and signed) on every attempt. */
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    attemptCount: integer('attempt_count').notNull(),
    /** Automatic attempts so far: the index into the retry schedule. */
    autoAttempts: integer('auto_attempts').notNull(),
    nextAttemptAt: text('next_attempt_at'),
    lastAttemptAt: text('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.subscriptionId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_list_idx').on(t.subscriptionId, t.createdAt, t.id),
  ],
);

/** Every HTTP attempt, kept for the delivery log. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    trigger: text('trigger', { enum: ['automatic', 'manual'] }).notNull(),
    startedAt: text('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    success: integer('success', { mode: 'boolean' }).notNull(),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

/** The signing secrets this device holds, sealed with its SecretBox (never synced). */
export const webhookSecrets = sqliteTable(
  'webhook_secrets',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    entityId: text('entity_id').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** When the hosted instance received it (linked entities); null while it still has to. */
    sharedAt: text('shared_at'),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.version] })],
);

/** Per-entity override of `config.allowLocalWebhookTargets`. */
export const webhookSettings = sqliteTable('webhook_settings', {
  entityId: text('entity_id').primaryKey(),
  allowLocalTargets: integer('allow_local_targets', { mode: 'boolean' }).notNull(),
  updatedAt: text('updated_at').notNull(),
});
