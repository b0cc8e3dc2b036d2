import type { Logger } from 'pino';
import type { Clock } from '../context.js';
import type { HostedStore } from './store.js';
import type { ChangeFeed } from './feed.js';
import type { HostedRelay } from './relay-config.js';
import type { HostedMailer } from './signing-mail.js';
import type { SignupMode } from './signups.js';
import type { SecretBox } from '../secrets.js';
import type { HostedWebhooks } from './webhook-worker.js';
import type { HostedTx } from './store.js';
import type { Change } from '../sync/protocol.js';

/**
 * What the instance does inside an append's transaction with the changes just accepted (see
 * reactions.ts). Handed in through the context: the reactions append changes of their own.
 */
export type AppendReaction = (h: HostedContext, tx: HostedTx, entityId: string, deviceId: string, accepted: Change[]) => Promise<void>;

/** The hosted instance's dependency bag. */
export interface HostedContext {
  store: HostedStore;
  /** Wakes long-polling pulls when a push commits. */
  feed: ChangeFeed;
  /** The oldest device schema version accepted (advertised in `GET /sync/v1/info` and every response's header). */
  minSchemaVersion: number;
  clock: Clock;
  ids: { next(): string };
  log: Logger;
  /** Aborted when the instance closes: long-polls end at once. */
  closing: AbortSignal;
  /** Where people outside the business reach this instance (signing links), when configured. */
  publicUrl?: string;
  /** Sends the mail this instance queues (signing invitations, signed copies). */
  mail?: HostedMailer;
  /** Seals secrets at rest (webhook signing secrets): one key shared by every process of the instance. */
  secrets: SecretBox;
  /** Run by every append to an entity's log, in its transaction, in order (reactions.ts). */
  reactions: readonly AppendReaction[];
  /** Delivers the webhooks of subscriptions whose deliverer is this instance. */
  webhooks?: HostedWebhooks;
  /** Who may open an account (`--signups`; default `open`). */
  signups?: SignupMode;
  /** The anonymous relay (chains and the hosted relayer); null when no chain is configured (503). */
  relay?: HostedRelay | null;
  /** The database can no longer be used (PGlite aborted, PostgreSQL PANIC): the process should end and be restarted. */
  onFatal(err: unknown): void;
}

/** A database failure no retry can fix inside this process. */
export function isFatalStoreError(err: unknown): boolean {
  const e = err as { name?: string; severity?: string; message?: string } | null;
  return !!e && (e.severity === 'PANIC' || (e.name === 'RuntimeError' && /Aborted/.test(e.message ?? '')));
}

export const serverTime = (h: Pick<HostedContext, 'clock'>) => h.clock.now().toISOString();
