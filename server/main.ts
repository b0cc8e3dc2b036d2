import { checkChainsFile } from './wallet/index.js';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type DestinationStream } from 'pino';
import { parseConfig, type ConfigInput } from './config.js';
import { systemClock, type Clock, type Context } from './context.js';
import { openDatabase } from './db/open.js';
import { closeReadPool } from './db/read-pool.js';
import { createTimeOrderedIds } from './db/ids.js';
import { createUnitOfWork } from './db/write.js';
import { createFileSecretBox, type SecretBox } from './secrets.js';
import { createBlobStore } from './blobs/index.js';
import { appPayloadCheck, createEventBus } from './events/bus.js';
import { createLoops } from './loops.js';
import { createRequestListener } from './app.js';
import { modules } from './modules.js';

export interface StartOptions extends Partial<ConfigInput> {
  clock?: Clock;
  /** Where log lines go (default stdout); tests capture them. */
  logDestination?: DestinationStream;
  secrets?: SecretBox;
  migrationsDir?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  ctx: Context;
  close(): Promise<void>;
}

/** Starts the Bureau server (used by Electron main, the CLI and tests). */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { clock = systemClock, secrets, migrationsDir, logDestination, ...configInput } = options;
  const config = parseConfig(configInput);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const log = pino(
    {
      level: config.logLevel,
      // Credentials never reach the log, whatever a caller passes.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.key', '*.secret', '*.token'], censor: '[redacted]' },
    },
    logDestination ?? pino.destination(1),
  );
  const chainsProblem = config.chainsFile ? checkChainsFile(config.chainsFile) : null;
  if (chainsProblem) throw new Error(chainsProblem);
  const { sqlite, db } = openDatabase(path.join(config.dataDir, 'bureau.db'), migrationsDir);
  const ids = { next: createTimeOrderedIds() };
  const unitOfWork = createUnitOfWork(db, sqlite);
  const ctx: Context = {
    config,
    db,
    sqlite,
    unitOfWork,
    clock,
    ids,
    log,
    secrets: secrets ?? createFileSecretBox(config.dataDir),
    blobs: createBlobStore(path.join(config.dataDir, 'blobs')),
    events: createEventBus({ db, unitOfWork, now: () => clock.now().toISOString(), nextId: ids.next, check: appPayloadCheck }),
    loops: createLoops(log, config.backgroundLoops),
  };
  for (const m of modules) m.start?.(ctx);
  ctx.loops.add('outbox', 250, () => void ctx.events.drain());

  let server: import('node:http').Server;
  try {
    server = await new Promise<import('node:http').Server>((resolve, reject) => {
      const s = http.createServer(createRequestListener(ctx));
      s.once('error', reject); // EADDRINUSE, …
      s.listen(config.port, config.host, () => {
        s.off('error', reject);
        resolve(s);
      });
    });
  } catch (err) {
    await ctx.loops.stop();
    sqlite.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  log.info({ url }, 'Bureau server listening');
  let closed = false;
  return {
    url,
    port,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      await ctx.loops.stop();
      for (const m of modules) await m.stop?.(ctx);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await closeReadPool(ctx);
      sqlite.close();
    },
  };
}
