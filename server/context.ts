import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Db } from './db/open.js';
import type { UnitOfWork } from './db/write.js';
import type { Config } from './config.js';
import type { SecretBox } from './secrets.js';
import type { BlobStore } from './blobs/store.js';
import type { EventBus } from './events/bus.js';

/** Wall clock, injectable so tests can move time. */
export interface Clock {
  now(): Date;
}

/** The dependency bag every use case receives; nothing reaches for globals. */
export interface Context {
  config: Config;
  db: Db;
  sqlite: Database.Database;
  /** Every write runs through it (`write(ctx, (tx) => …)`, server/db/write.ts). */
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: { next(): string };
  log: Logger;
  secrets: SecretBox;
  blobs: BlobStore;
  events: EventBus;
  /** Background work registered by modules; stopped on close. */
  loops: BackgroundLoops;
}

export interface BackgroundLoops {
  add(name: string, intervalMs: number, tick: () => Promise<void> | void): void;
  /** Runs every loop's tick once now (tests use this to avoid waiting). */
  runAll(): Promise<void>;
  /** Aborted as `stop` begins: long ticks (network calls) end early instead of delaying close. */
  readonly signal: AbortSignal;
  stop(): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

/** Current time as an ISO-8601 UTC string. */
export function nowIso(ctx: Pick<Context, 'clock'>): string {
  return ctx.clock.now().toISOString();
}
