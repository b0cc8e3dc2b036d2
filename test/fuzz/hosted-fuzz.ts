// The hosted fuzz (issue 25): the desktop's OpenAPI fuzz (cases.ts, runner.ts) pointed at the
// hosted instance's document, GET /sync/v1/openapi.json. Every operation gets schema-derived bad
// input — NUL and lone surrogates at any depth of a body, numbers past 32 and 53 bits, deep
// nesting, wrong types, malformed JSON and encodings, oversized bodies, malformed, unknown and
// revoked device tokens — and must answer below 500 (502/503 only from the relay, whose chain does
// not answer here) with an `{error}` body. Device operations are sent with a real owner's device
// token of a linked entity that holds real rows (a desktop linked, sent a signature request and
// synced); public operations without credentials. The server stays up, its memory bounded, and
// it logs no error. Run on PGlite and on PostgreSQL (one test file each).
//
// FUZZ_SEED, FUZZ_RUNS, FUZZ_ONLY, FUZZ_VERBOSE, FUZZ_REPORT as for test/fuzz/openapi-fuzz.test.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { formatStamp } from '../../server/sync/hlc.js';
import { seedHostedEntity } from '../hosted/seed.js';
import type { Identity } from './cases.js';
import { FuzzHarness, formatFailures, summarizeLog, type FuzzTarget } from './runner.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Growth of the hosted process's resident memory over the whole run that counts as a leak. */
const MAX_RSS_GROWTH = 300 * 1024 * 1024;

function hostedTarget(databaseUrl: string | undefined): FuzzTarget {
  return {
    launch: { args: [path.join('test', 'fuzz', 'hosted-server.ts'), '{dataDir}'], ready: /Bureau hosted instance is running at (http:\/\/\S+)/, env: databaseUrl ? { DATABASE_URL: databaseUrl } : {} },
    docPath: '/sync/v1/openapi.json',
    async seed(url) {
      const seed = await seedHostedEntity(url, 'Fuzz', { codes: 30 });
      // A stamp of now: pushes within the 10-minute clock-skew window reach the log.
      const hlc = formatStamp({ wallMs: Date.now(), counter: 0, node: crypto.randomUUID().replace(/-/g, '') });
      const ids = { entityId: seed.entityId, deviceId: seed.spareDeviceId, sha256: seed.blobSha, token: seed.signingToken, requestId: seed.requestId, signerId: seed.signerId, fieldId: seed.fieldId, documentId: seed.documentId };
      return {
        ids,
        anyIds: [seed.entityId, seed.spareDeviceId, seed.requestId, seed.signerId, seed.fieldId, seed.documentId],
        deepLeaves: true,
        examples: {
          'POST /sync/v1/link': [{ email: 'fuzz-linker@example.com', password: 'correct horse battery staple', name: 'Fuzz Linker', entityId: crypto.randomUUID(), entityName: 'Fuzz Linked Ltd', deviceName: 'Fuzz desktop' }],
          // One add-device code kept for this: a join that fails midway leaves its code unused.
          'POST /sync/v1/join': [{ code: seed.codes[0], email: seed.email, password: seed.password, deviceName: 'Fuzz laptop' }],
          'POST /sync/v1/invitations': [{ email: 'fuzz-invitee@example.com', role: 'member' }],
          'POST /sync/v1/push': [
            {
              changes: [
                { id: crypto.randomUUID(), table: 'folders', rowId: crypto.randomUUID(), op: 'upsert', columns: { name: 'Fuzz folder', position: 1, parent_id: null }, hlc, schemaVersion: 1 },
                { id: crypto.randomUUID(), table: 'ticket_messages', rowId: crypto.randomUUID(), op: 'fact', columns: { body: 'Fuzz', created_at: new Date().toISOString() }, hlc, schemaVersion: 1 },
              ],
            },
          ],
          'POST /api/sign/{token}': [{ action: 'sign', fields: [{ fieldId: seed.fieldId, value: 'Fuzz Signer' }] }],
        },
        // Values that get a request past validation to the database: the owner's credentials, add-device codes, a change that applies.
        hints: {
          email: [seed.email],
          password: [seed.password],
          code: seed.codes.slice(1),
          hlc: [hlc],
          table: ['folders', 'tickets'],
          columns: [{ name: 'Fuzzed' }, { name: 'Fuzz', position: 3, archived: 0, parent_id: null }],
          expect: [{ name: 'Fuzzed' }],
          schemaVersion: [1],
          waitMs: [0, 20],
        },
        identities: (op): Identity[] =>
          op.spec.security?.length
            ? [{ name: 'device', headers: { authorization: `Bearer ${seed.ownerToken}` }, revoked: [seed.revokedToken] }]
            : [{ name: 'public', headers: {}, revoked: [seed.revokedToken] }],
      };
    },
  };
}

export async function hostedFuzz(store: string, file: string, databaseUrl?: string): Promise<void> {
  const settings = {
    seed: Number(process.env.FUZZ_SEED ?? 2525),
    runs: Number(process.env.FUZZ_RUNS ?? 6),
    only: process.env.FUZZ_ONLY || undefined,
    serverDir: repoRoot,
    verbose: process.env.FUZZ_VERBOSE === '1' || process.env.FUZZ_VERBOSE === '2',
    file,
  };
  const harness = await FuzzHarness.startOn(settings, hostedTarget(databaseUrl));
  afterAll(async () => {
    const s = Math.round((Date.now() - harness.started) / 1000);
    console.log(
      `hosted fuzz (${store}): ${harness.requests} requests in ${s} s (seed ${settings.seed}, runs ${settings.runs}), ${harness.failures.length} failures, ${harness.restarts} restarts, RSS ${mb(harness.server.rssBytes())} (baseline ${mb(harness.baselineRss)})`,
    );
    if (process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ settings, store, requests: harness.requests, failures: harness.failures }, null, 2));
    await harness.close();
  });

  describe(`hosted OpenAPI fuzz on ${store} (seed ${settings.seed})`, () => {
    const operations = harness.operations();

    it('covers every operation of the hosted document', () => {
      expect(operations.length).toBeGreaterThan(settings.only ? 0 : 20);
    });

    for (const op of operations) {
      it(op.key, { timeout: 300_000 }, async () => {
        const failures = await harness.fuzzOperation(op);
        if (failures.length) expect.fail(`${failures.length} bad responses for ${op.key} (seed ${settings.seed}; replay: ${harness.replayHint(op)}):\n${formatFailures(failures)}`);
      });
    }

    it('the instance stays up and its memory bounded after the whole run', async () => {
      const health = await harness.send({ label: 'health', method: 'GET', path: '/api/health', headers: {} });
      expect(health.kind === 'response' && health.status).toBe(200);
      const rss = harness.server.rssBytes();
      expect(rss, 'RSS readable from /proc').not.toBeNull();
      expect(rss! - harness.baselineRss, `RSS grew from ${mb(harness.baselineRss)} to ${mb(rss)} (seed ${settings.seed})`).toBeLessThan(MAX_RSS_GROWTH);
    });

    it('the instance logged no errors', () => {
      const lines = harness.errorLogs.slice(0, 15).map((e) => `  - during ${e.operation}: ${summarizeLog(e.line)}`);
      expect(harness.errorLogs.length, `${harness.errorLogs.length} error lines in the log (seed ${settings.seed}):\n${lines.join('\n')}`).toBe(0);
    });
  });
}

function mb(bytes: number | null): string {
  return bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`;
}
