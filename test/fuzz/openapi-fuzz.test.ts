import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FuzzHarness, formatFailures, summarizeLog } from './runner.js';

/**
 * Issue 12: no request can crash the server or earn a 500. For every operation in
 * GET /api/openapi.json, as a session and as an API key, sends schema-derived bad input and
 * checks: status < 500 (502/503 only from /api/privacy and /api/relay, the chain routes), every
 * 4xx a JSON `{ error: string }`, error bodies < 64 KB, the server alive after each operation,
 * its memory bounded, and no error in its log. The server runs as a child process, so a crash is a reported failure
 * (the fuzz restarts it on the same data dir and goes on), not a dead test worker.
 *
 * FUZZ_SEED (fixed by default: runs are deterministic), FUZZ_RUNS (random cases per operation
 * and identity), FUZZ_ONLY (substring of an operation key, to replay one), FUZZ_SERVER_DIR (run
 * another checkout's server, e.g. the code before a fix), FUZZ_VERBOSE=1 (print every request),
 * FUZZ_REPORT (write every failure as JSON to this file).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const settings = {
  seed: Number(process.env.FUZZ_SEED ?? 1212),
  runs: Number(process.env.FUZZ_RUNS ?? 6),
  only: process.env.FUZZ_ONLY || undefined,
  serverDir: path.resolve(process.env.FUZZ_SERVER_DIR ?? repoRoot),
  verbose: process.env.FUZZ_VERBOSE === '1',
};
/** Growth of the server's resident memory over the whole run that counts as a leak. */
const MAX_RSS_GROWTH = 300 * 1024 * 1024;

const harness = await FuzzHarness.start(settings);
afterAll(async () => {
  const s = Math.round((Date.now() - harness.started) / 1000);
  console.log(
    `openapi fuzz: ${harness.requests} requests in ${s} s (seed ${settings.seed}, runs ${settings.runs}), ${harness.failures.length} failures, ${harness.restarts} server restarts, RSS ${mb(harness.server.rssBytes())} (baseline ${mb(harness.baselineRss)})`,
  );
  if (process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ settings, requests: harness.requests, failures: harness.failures }, null, 2));
  await harness.close();
});

describe(`OpenAPI fuzz (seed ${settings.seed})`, () => {
  const operations = harness.operations();

  it('covers every operation of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(settings.only ? 0 : 50);
  });

  for (const op of operations) {
    it(op.key, { timeout: 300_000 }, async () => {
      const failures = await harness.fuzzOperation(op);
      if (failures.length) {
        expect.fail(`${failures.length} bad responses for ${op.key} (seed ${settings.seed}; replay: ${harness.replayHint(op)}):\n${formatFailures(failures)}`);
      }
    });
  }

  it('the server stays up and its memory bounded after the whole run', async () => {
    const health = await harness.send({ label: 'health', method: 'GET', path: '/api/health', headers: {} });
    expect(health.kind === 'response' && health.status).toBe(200);
    const rss = harness.server.rssBytes();
    expect(rss, 'server RSS readable from /proc').not.toBeNull();
    expect(rss! - harness.baselineRss, `RSS grew from ${mb(harness.baselineRss)} to ${mb(rss)} (seed ${settings.seed})`).toBeLessThan(MAX_RSS_GROWTH);
  });

  it('the server logged no errors (work that failed after a 2xx shows up only there)', () => {
    const lines = harness.errorLogs.slice(0, 15).map((e) => `  - during ${e.operation}: ${summarizeLog(e.line)}`);
    expect(harness.errorLogs.length, `${harness.errorLogs.length} error lines in the server log (seed ${settings.seed}):\n${lines.join('\n')}`).toBe(0);
  });
});

function mb(bytes: number | null): string {
  return bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`;
}
