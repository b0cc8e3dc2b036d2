import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino, type DestinationStream } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { systemClock, type Clock } from '../context.js';
// The modules register their tables and sync policies, which the hosted instance checks pushes against.
import '../modules.js';
import type { HostedContext } from './context.js';
import { openHostedStore } from './store.js';
import { createHostedApp } from './app.js';
import { startChangeFeed } from './feed.js';
import { openHostedRelay, type HostedRelayOptions } from './relay-config.js';
import { startHostedMailer } from './signing-mail.js';
import { startHostedWebhooks } from './webhook-worker.js';
import { appendReactions } from './reactions.js';
import { createFileSecretBox, createKeySecretBox, type SecretBox } from '../secrets.js';
import { DEFAULT_LIMITS, type HostedLimits } from './limits.js';
import { PROTOCOL_VERSION } from '../sync/protocol.js';
import { trustProxySetting } from './trust-proxy.js';
import type { SignupMode } from './signups.js';

/** Relay options (`chains`, `chainsFile`, `relayerKeyFile`, `relayGas`): see relay-config.ts. */
export interface HostedOptions extends HostedRelayOptions {
  port?: number;
  host?: string;
  dataDir: string;
  /** `postgres://…`: PostgreSQL instead of PGlite in the data dir. */
  databaseUrl?: string;
  logLevel?: string;
  logDestination?: DestinationStream;
  clock?: Clock;
  /** Rate limits to replace (tests use small ones). */
  limits?: Partial<HostedLimits>;
  /** The oldest device schema version accepted (default: this version's). Devices older than it go read-only. */
  minSchemaVersion?: number;
  /** The URL people outside the business use to reach this instance (signing links); also served pages. */
  publicUrl?: string;
  /** `smtp://…`: how this instance sends mail (signing invitations, signed copies). Without it mail waits queued. */
  smtpUrl?: string;
  mailFrom?: string;
  /** The built UI (its public signing screen is served at /sign/{token}). */
  rendererDir?: string;
  /**
   * Whose X-Forwarded-For names the client for per-IP limits (Express's `trust proxy`: `loopback`,
   * addresses or CIDR ranges, a number of proxies). Default: nobody's, the socket's address is the client.
   */
  trustProxy?: string | boolean;
  /**
   * Who may open an account: `open` (default) anyone, confirmed by a code mailed to the address
   * (unconfirmed without `smtpUrl`); `invite` only an address an owner or admin invited; `closed`
   * existing accounts only.
   */
  signups?: SignupMode;
  /**
   * This instance's key for secrets at rest (webhook signing secrets): 32 bytes in base64, the same
   * for every process sharing one PostgreSQL (default: `BUREAU_HOSTED_SECRET_KEY`, else a key file
   * made in the data dir on first start — one process only).
   */
  secretKey?: string;
  /** Let this instance deliver webhooks to loopback and private addresses (tests; default off: SSRF guard). */
  allowLocalWebhookTargets?: boolean;
  /** Called when the database failed beyond repair in this process (default: log only). */
  onFatal?: (err: unknown) => void;
}

export interface RunningHosted {
  url: string;
  port: number;
  ctx: HostedContext;
  close(): Promise<void>;
}

function hostedSecretBox(opts: HostedOptions): SecretBox {
  const key = opts.secretKey ?? process.env.BUREAU_HOSTED_SECRET_KEY;
  if (!key) return createFileSecretBox(opts.dataDir);
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 32) throw new Error('The hosted secret key must be 32 bytes in base64');
  return createKeySecretBox(bytes);
}

/** Starts the hosted instance (used by `npm run hosted` and tests). */
export async function startHosted(opts: HostedOptions): Promise<RunningHosted> {
  const log = pino({ level: opts.logLevel ?? 'warn', redact: { paths: ['*.password', '*.token', '*.deviceToken'], censor: '[redacted]' } }, opts.logDestination ?? pino.destination(1));
  // Before the database: a bad trust-proxy spec, or a chains file that is named but broken, stops the start with its reason.
  trustProxySetting(opts.trustProxy);
  const relay = await openHostedRelay(opts, log);
  const store = await openHostedStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  const closing = new AbortController();
  const feed = await startChangeFeed(store);
  const ctx: HostedContext = {
    store,
    feed,
    minSchemaVersion: opts.minSchemaVersion ?? PROTOCOL_VERSION,
    clock: opts.clock ?? systemClock,
    ids: { next: () => uuidv7() },
    log,
    closing: closing.signal,
    onFatal: opts.onFatal ?? (() => undefined),
    publicUrl: opts.publicUrl?.replace(/\/+$/, ''),
    relay,
    signups: opts.signups ?? 'open',
    secrets: hostedSecretBox(opts),
    reactions: appendReactions,
  };
  ctx.webhooks = startHostedWebhooks(ctx, { allowLocalTargets: opts.allowLocalWebhookTargets ?? false });
  ctx.mail = startHostedMailer(ctx, { smtpUrl: opts.smtpUrl, from: opts.mailFrom ?? 'Bureau <no-reply@bureau.local>', publicUrl: ctx.publicUrl });
  const app = createHostedApp(ctx, { ...DEFAULT_LIMITS, ...opts.limits }, { rendererDir: opts.rendererDir, trustProxy: opts.trustProxy });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(opts.port ?? 4690, opts.host ?? '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
    });
  } catch (err) {
    ctx.mail.close();
    ctx.webhooks.close();
    await feed.close();
    await store.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${(opts.host ?? '127.0.0.1').includes(':') ? `[${opts.host}]` : (opts.host ?? '127.0.0.1')}:${port}`;
  let closed = false;
  return {
    url,
    port,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      ctx.mail?.close();
      ctx.webhooks?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await feed.close();
      await store.close();
    },
  };
}
