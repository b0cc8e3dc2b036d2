import { asc, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/open.js';
import type { Queryable, Tx } from '../db/tx.js';
import type { UnitOfWork } from '../db/write.js';
import { outbox, outboxCursors } from './tables.js';
import { checkEventPayload, type EventPayloads } from './catalogue.js';

/** What a producer records: the type picks the payload shape (`EventPayloads`, from each module's `events.ts`). */
export type NewEvent<T extends keyof M & string, M = EventPayloads> = { entityId: string; type: T; data: M[T] };

export interface DomainEvent {
  id: string;
  entityId: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
  /** Another writer's event recorded here again for local consumers (see `outbox.replay_of`). */
  replayOf?: string | null;
}

/**
 * A consumer handles a batch of outbox events inside one transaction together with the
 * advance of its cursor, so a crash either keeps both or neither (at-least-once, no loss).
 */
export type OutboxConsumer = (events: DomainEvent[], tx: Tx) => void;

/** Live listeners (server-sent events) are told after commit; they are not durable. */
export type LiveListener = (event: DomainEvent) => void;

/** `M`: event type → payload; the app's catalogue unless a test of the outbox itself says otherwise. */
export interface EventBus<M = EventPayloads> {
  /**
   * Records an event in the outbox; call inside the transaction that makes the change. For a
   * linked entity it also becomes a synced fact (`entity_events`), unless it is `replayOf` another
   * writer that recorded it already (the hosted instance), or `local` (about this device only, such
   * as its sync undoing a change): then it is for this device's consumers only.
   */
  record<T extends keyof M & string>(tx: Queryable, event: NewEvent<T, M>, opts?: { replayOf?: 'hosted'; local?: boolean }): DomainEvent;
  /** The linked entities and this device's id in each (set by sync whenever links change). */
  setLinked(devices: Map<string, string>): void;
  /** This device's id in a linked entity, or undefined when the entity is not linked. */
  linkedDevice(entityId: string): string | undefined;
  /** Every linked entity with this device's id in it. */
  linkedEntities(): ReadonlyMap<string, string>;
  registerConsumer(name: string, consumer: OutboxConsumer): void;
  onLive(listener: LiveListener): () => void;
  /** Hands new outbox events to every consumer; returns how many events were handled. */
  drain(): number;
}

/**
 * The app's payload check (`check` below): against the catalogue's schemas in development and
 * tests, not in production. The types already hold every producer to its shape; the check catches
 * what types cannot (casts, values read back from rows). In production it would cost the hot path
 * (a ledger posting records an event) a parse, and fail a user's change over its event's shape.
 */
export const appPayloadCheck = process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development' ? checkEventPayload : undefined;

/** `unitOfWork`: the app's, so a consumer's writes are one write like any other (tests may leave it out). */
export function createEventBus<M = EventPayloads>(deps: { db: Db; unitOfWork?: Pick<UnitOfWork, 'run'>; now: () => string; nextId: () => string; check?: (type: string, data: unknown) => void }): EventBus<M> {
  const consumers = new Map<string, OutboxConsumer>();
  const live = new Set<LiveListener>();
  let liveCursor = '';
  const sqlite = (deps.db as Db & { $client: import('better-sqlite3').Database }).$client;
  const insertOutbox = sqlite.prepare('INSERT INTO outbox (id, entity_id, type, data, created_at, replay_of) VALUES (?, ?, ?, ?, ?, ?)');
  const insertFact = sqlite.prepare('INSERT INTO entity_events (id, entity_id, type, data, created_at, origin) VALUES (?, ?, ?, ?, ?, ?)');
  let linked = new Map<string, string>();
  const lastOutboxId = () => deps.db.select({ id: outbox.id }).from(outbox).orderBy(desc(outbox.id)).limit(1).get()?.id;

  function drainConsumer(name: string, consumer: OutboxConsumer): number {
    const run = deps.unitOfWork ? deps.unitOfWork.run : <T>(fn: (tx: Tx) => T) => deps.db.transaction(fn);
    return run((tx) => {
      const cursor = tx.select().from(outboxCursors).where(eq(outboxCursors.consumer, name)).get();
      const rows = tx
        .select()
        .from(outbox)
        .where(cursor ? gt(outbox.id, cursor.lastId) : undefined)
        .orderBy(asc(outbox.id))
        .limit(200)
        .all();
      if (rows.length === 0) return 0;
      consumer(rows, tx);
      const lastId = rows[rows.length - 1].id;
      tx.insert(outboxCursors).values({ consumer: name, lastId }).onConflictDoUpdate({ target: outboxCursors.consumer, set: { lastId } }).run();
      return rows.length;
    });
  }

  function drainLive(): void {
    if (live.size === 0) {
      liveCursor = lastOutboxId() ?? liveCursor;
      return;
    }
    const rows = deps.db.select().from(outbox).where(liveCursor ? gt(outbox.id, liveCursor) : undefined).orderBy(asc(outbox.id)).limit(500).all();
    for (const row of rows) {
      liveCursor = row.id;
      for (const l of live) {
        try {
          l(row);
        } catch {
          // a broken live listener must not stop the others
        }
      }
    }
  }

  return {
    record(tx, event, opts) {
      deps.check?.(event.type, event.data);
      const row: DomainEvent = { id: deps.nextId(), createdAt: deps.now(), entityId: event.entityId, type: event.type, data: event.data as Record<string, unknown>, replayOf: opts?.replayOf ?? (opts?.local ? 'device' : null) };
      // Prepared once on the one connection every transaction (`tx`) runs on: building the drizzle
      // insert on each call was a fifth of posting a ledger event (profiled).
      const data = JSON.stringify(row.data);
      insertOutbox.run(row.id, row.entityId, row.type, data, row.createdAt, row.replayOf);
      const device = linked.get(row.entityId);
      if (device && !row.replayOf) insertFact.run(row.id, row.entityId, row.type, data, row.createdAt, device);
      return row;
    },
    setLinked(devices) {
      linked = new Map(devices);
    },
    linkedDevice: (entityId) => linked.get(entityId),
    linkedEntities: () => linked,
    registerConsumer(name, consumer) {
      // A new consumer starts after the events that exist now, not from the beginning of time.
      if (!consumers.has(name)) {
        // Always persist the starting point (even on an empty outbox), so events recorded before
        // the first drain are not skipped if the process restarts in between.
        deps.db.insert(outboxCursors).values({ consumer: name, lastId: lastOutboxId() ?? '' }).onConflictDoNothing().run();
      }
      consumers.set(name, consumer);
    },
    onLive(listener) {
      if (live.size === 0) {
        liveCursor = lastOutboxId() ?? '';
      }
      live.add(listener);
      return () => live.delete(listener);
    },
    drain() {
      let handled = 0;
      for (const [name, consumer] of consumers) {
        let n: number;
        do {
          n = drainConsumer(name, consumer);
          handled += n;
        } while (n > 0);
      }
      drainLive();
      return handled;
    },
  };
}
