import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, ConflictError } from '../http/errors.js';
import { evaluateEvent, needsApproval } from './evaluate.js';
import { writeEntry } from './journal.js';
import { presentEvent, type EventRow, type LedgerEventJson } from './present.js';
import { findEventType } from './rules/index.js';
import { postEventInput, type PostEventInput } from './schemas.js';
import { eventIdOf } from './ids.js';
import { inLedgerTx, readSettings } from './setup.js';
import { ledgerStatements } from './hot-statements.js';
import type { Actor, PostingStatus } from './tables.js';

export interface PostEventResult {
  event: LedgerEventJson;
  /** True when an earlier event with the same idempotencyKey and input was returned. */
  replayed: boolean;
}

/**
 * Records a business event and runs it through the posting engine at once, in one
 * transaction: posted (with its journal entry), pending_approval, failed (stored with
 * `postingError`, nothing posted) or unposted. Other modules call this directly, e.g.
 * `postEvent(ctx, entityId, { type: 'transfer_shielded', payload, idempotencyKey, source: 'privacy' })`;
 * called inside their own `ctx.db.transaction` it joins that transaction (as a savepoint).
 */
export function postEvent(ctx: Context, entityId: string, raw: PostEventInput, defaults: PostDefaults = {}): PostEventResult {
  const prepared = prepareEvent(raw);
  return inLedgerTx(ctx, entityId, (db) => postPrepared(ctx, db, entityId, prepared, defaults));
}

export interface PostDefaults {
  source?: string;
  actor?: Actor;
}

/** An event request validated and hashed, ready to be posted in a transaction. */
export interface PreparedEvent {
  input: ReturnType<typeof postEventInput.parse>;
  def: NonNullable<ReturnType<typeof findEventType>>;
  inputHash: string;
}

/** Validates the request (zod → 400, unknown type → 400) and hashes it; no database work. */
export function prepareEvent(raw: PostEventInput): PreparedEvent {
  return prepareValidEvent(postEventInput.parse(raw));
}

/** `prepareEvent` for a request its route already validated (POST /api/ledger/events' body). */
export function prepareValidEvent(input: PreparedEvent['input']): PreparedEvent {
  const def = findEventType(input.type);
  if (!def) throw new BadRequestError(`Unknown event type "${input.type}"`, { knownTypes: '/api/ledger/event-types' });
  return { input, def, inputHash: hashInput(input) };
}

/** A type Bureau records itself (`recordable: false`) is refused when someone records it through the API or the form. */
export function assertRecordable(prepared: PreparedEvent): PreparedEvent {
  if (prepared.def.recordable === false) throw new BadRequestError(`"${prepared.input.type}" is recorded by Bureau itself (${prepared.def.title}), not by hand; reclassify such an event instead`);
  return prepared;
}

/**
 * Posts a prepared event inside the caller's transaction (the entity's ledger already seeded):
 * an idempotent replay, a 409 for a reused key with other input, or a new processed event.
 */
export function postPrepared(ctx: Context, db: Queryable, entityId: string, { input, def, inputHash }: PreparedEvent, defaults: PostDefaults): PostEventResult {
  if (input.idempotencyKey) {
    const earlier = ledgerStatements(db).eventByKey(entityId, input.idempotencyKey);
    if (earlier) {
      if (earlier.inputHash !== inputHash) throw new ConflictError('idempotencyKey was already used with a different request', { eventId: earlier.id });
      return { event: presentEvent(earlier), replayed: true };
    }
  }
  const now = nowIso(ctx);
  const row: EventRow = {
    id: input.idempotencyKey ? eventIdOf(entityId, input.idempotencyKey) : ctx.ids.next(),
    entityId,
    type: input.type,
    timestamp: input.timestamp ? new Date(input.timestamp).toISOString() : now,
    payload: input.payload,
    source: input.source ?? defaults.source ?? 'api',
    correlationId: input.correlationId ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    inputHash,
    schemaVersion: input.schemaVersion ?? def.schemaVersion,
    metadata: input.metadata ?? {},
    recordedBy: defaults.actor ?? null,
    postingStatus: 'unposted',
    postingError: null,
    reclassifiedFrom: null,
    reclassifiedTo: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return { event: presentEvent(processNewEvent(ctx, db, row, { skipApproval: false })), replayed: false };
}

/**
 * Inserts the event with the status the posting engine gives it, writes its entry when it
 * posts, and records the matching domain event. Shared by posting and reclassification.
 */
export function processNewEvent(ctx: Context, db: Queryable, row: EventRow, opts: { skipApproval: boolean; effectiveAt?: string }): EventRow {
  const evaluation = evaluateEvent(db, row.entityId, row.type, row.payload, row.schemaVersion);
  let status: PostingStatus;
  if (evaluation.outcome === 'failed') {
    status = 'failed';
    row.postingError = evaluation.error;
  } else if (evaluation.outcome === 'unposted') {
    status = 'unposted';
  } else if (!opts.skipApproval && needsApproval(evaluation.lines, readSettings(db, row.entityId).approvalThresholds)) {
    status = 'pending_approval';
  } else {
    status = 'posted';
  }
  row.postingStatus = status;
  ledgerStatements(db).insertEvent(row);
  let entryId: string | undefined;
  if (status === 'posted' && evaluation.outcome === 'post') {
    entryId = writeEntry(ctx, db, { entityId: row.entityId, eventId: row.id, kind: 'posting', description: evaluation.description, effectiveAt: opts.effectiveAt ?? row.timestamp, lines: evaluation.lines });
  }
  if (status !== 'unposted') {
    ctx.events.record(db, {
      entityId: row.entityId,
      type: `ledger.event.${status}`,
      data: { eventId: row.id, eventType: row.type, postingStatus: status, ...(row.postingError ? { postingError: row.postingError } : {}), ...(entryId ? { entryId } : {}) },
    });
  }
  return row;
}

/** SHA-256 of the request as given (canonical JSON), to recognise a replay under an idempotencyKey. */
export function hashInput(input: ReturnType<typeof postEventInput.parse>): string {
  const canonical = stringify({
    type: input.type,
    payload: input.payload,
    timestamp: input.timestamp ?? null,
    source: input.source ?? null,
    correlationId: input.correlationId ?? null,
    schemaVersion: input.schemaVersion ?? null,
    metadata: input.metadata ?? null,
  });
  return createHash('sha256').update(canonical ?? '').digest('hex');
}
