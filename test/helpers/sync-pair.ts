// Two device servers of one entity and the hosted instance between them, as a person sets them
// up: signed up on device A, linked there, joined from a fresh device B with an add-device code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { startHosted, type HostedOptions, type RunningHosted } from '../../server/hosted/main.js';
import { confirmed } from '../hosted/confirm.js';
import type { TestSmtp } from './smtp.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from './server.js';

export interface SyncPair {
  hosted: RunningHosted;
  a: TestServer;
  b: TestServer;
  onA: SessionClient;
  onB: Client;
  /** One sync cycle on a device; its status. */
  run(c: Client): Promise<{ state: string; rejected: { reason: string }[] } & Record<string, unknown>>;
  /** Cycles on both devices until each has what the other wrote. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `before` runs on device A before the link (data the link's first push must carry). `opts.smtp`:
 * the hosted instance sends mail there (and so confirms the new account by mail); `opts.hosted`:
 * more of its options.
 */
export async function startSyncPair(entityName: string, before?: (onA: SessionClient, a: TestServer) => Promise<void>, opts: { smtp?: TestSmtp; hosted?: Partial<HostedOptions> } = {}): Promise<SyncPair> {
  const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-pair-'));
  const hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent', ...(opts.smtp ? { smtpUrl: opts.smtp.url } : {}), ...opts.hosted });
  const confirming = <R extends { status: number }>(body: { email: string } & Record<string, unknown>, post: (b: Record<string, unknown>) => Promise<R>) => (opts.smtp ? confirmed(opts.smtp, body, post) : post(body));
  const a = await startTestServer();
  const b = await startTestServer();
  const onA = await a.signup({ entityName });
  await before?.(onA, a);
  const linked = await confirming({ hostedUrl: hosted.url, email: onA.email, password: onA.password }, (body) => onA.post('/api/sync/link', body));
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  const code = await onA.post('/api/sync/devices/code', {});
  const joined = await b.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: onA.email, password: onA.password });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  const onB = makeClient(b.url, { cookie: (joined.headers.get('set-cookie') ?? '').split(';')[0], origin: b.url, 'x-entity-id': onA.entityId });
  const run = async (c: Client) => {
    const res = await c.post('/api/sync/run', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  return {
    hosted,
    a,
    b,
    onA,
    onB,
    run,
    async settle() {
      for (let i = 0; i < 2; i++) {
        await run(onA);
        await run(onB);
      }
    },
    async close() {
      await a.close();
      await b.close();
      await hosted.close();
      fs.rmSync(hostedDir, { recursive: true, force: true });
    },
  };
}
