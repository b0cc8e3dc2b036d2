import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePdf } from '../fixtures/pdf.js';
import { casesFor, operationsOf, ORIGIN, type FuzzCase, type Identity, type Operation } from './cases.js';
import { createFixtures, startSink } from './fixtures.js';
import { resetConnections, send, type RawResult } from './http.js';
import { SchemaResolver, type OpenApiDoc } from './schema.js';
import { ServerProcess, type Launch } from './server-process.js';

export interface FuzzSettings {
  seed: number;
  runs: number;
  /** Only operations whose key (`GET /api/…`) contains this string. */
  only?: string;
  serverDir: string;
  /** Print every request and its outcome. */
  verbose?: boolean;
  /** The test file, for replay hints (default: all of test/fuzz). */
  file?: string;
}

/** What the cases aim at on one server: real ids, who calls, values its schemas cannot say. */
export interface FuzzAim {
  /** Real ids by parameter / property name. */
  ids: Record<string, string>;
  /** Ids for uuid fields whose name says nothing (default: every value of `ids`). */
  anyIds?: string[];
  /** Who sends each operation's cases. */
  identities(op: Operation): Identity[];
  hints: Record<string, unknown[]>;
  /** Break leaves nested at any depth too (see casesFor). */
  deepLeaves?: boolean;
  /** Request bodies that succeed, by operation key (`POST /sync/v1/push`): the bases of deepLeaves. */
  examples?: Record<string, unknown[]>;
}

/** The server a fuzz runs against and how its data is seeded. */
export interface FuzzTarget {
  /** Default: the desktop server. */
  launch?: Launch;
  /** Where the server serves its OpenAPI document. */
  docPath: string;
  /** Seeds the running server; returns what the cases aim at. */
  seed(url: string, doc: OpenApiDoc, sinkUrl: string): Promise<FuzzAim>;
}

export interface Failure {
  operation: string;
  identity: string;
  label: string;
  request: string;
  outcome: string;
  serverLog: string[];
}

/** Accepted values for fields whose JSON schema is just "a string", so valid-ish requests get past validation. */
const VALUE_HINTS: Record<string, unknown[]> = {
  events: [['*'], ['ticket.created', 'ledger.event.posted']],
  type: ['invoice_created', 'message'],
  newEventType: ['invoice_created', 'bill_received'],
  link: ['/helpdesk', 'https://example.com/x'],
};

/** Error bodies above this are a defect (a client should never get megabytes of zod issues). */
export const MAX_ERROR_BODY = 64 * 1024;

/**
 * The verdict on one response: status < 500 (502/503 only from the chain-backed privacy and
 * relay routes), every 4xx a JSON `{ error: string }`, and every error body small.
 */
export function judge(op: Operation, r: RawResult): string | null {
  if (r.kind === 'error') return `no response: ${r.error}`;
  const chainRoute = op.path.startsWith('/api/privacy/') || op.path.startsWith('/api/relay/');
  const preview = r.body.subarray(0, 300).toString('utf8');
  if (r.status >= 500 && !(chainRoute && (r.status === 502 || r.status === 503))) return `status ${r.status}: ${preview}`;
  // A HEAD answer has no body by definition: its status is all there is to judge.
  if (op.method === 'HEAD') return null;
  if (r.status >= 400 && r.size >= MAX_ERROR_BODY) return `status ${r.status} with a ${r.size}-byte error body: ${preview.slice(0, 120)}…`;
  if (r.status >= 400 && r.status < 500) {
    if (!String(r.headers['content-type'] ?? '').includes('application/json')) return `status ${r.status} without a JSON body (content-type ${r.headers['content-type'] ?? 'none'}): ${preview}`;
    let body: unknown;
    try {
      body = JSON.parse(r.body.toString('utf8'));
    } catch {
      return `status ${r.status} with unparseable JSON: ${preview}`;
    }
    if (!body || typeof body !== 'object' || typeof (body as { error?: unknown }).error !== 'string') return `status ${r.status} without an "error" string: ${preview}`;
  }
  return null;
}

function describeRequest(c: FuzzCase): string {
  const p = c.path.length > 160 ? `${c.path.slice(0, 160)}…(${c.path.length} chars)` : c.path;
  const headers = Object.entries(c.headers)
    .filter(([k]) => !['cookie', 'authorization', 'origin'].includes(k) || c.label.startsWith('cookie') || c.label.startsWith('authorization'))
    .map(([k, v]) => `${k}: ${String(v).slice(0, 60)}`)
    .join('; ');
  const body = c.body ? ` body ${c.body.length} bytes: ${JSON.stringify(c.body.subarray(0, 100).toString('utf8'))}` : '';
  return `${c.method} ${p}${headers ? ` [${headers}]` : ''}${body}`;
}

/** The server, its data and credentials, and the bookkeeping of one fuzz run. */
export class FuzzHarness {
  requests = 0;
  restarts = 0;
  failures: Failure[] = [];
  /** Error-level server log lines (unhandled errors, failed background work), by operation. */
  errorLogs: { operation: string; line: string }[] = [];
  /** RSS of the current server process after setup (reset when it had to be restarted). */
  baselineRss = 0;
  readonly started = Date.now();
  private readonly resolver: SchemaResolver;

  private constructor(
    readonly settings: FuzzSettings,
    readonly server: ServerProcess,
    readonly sink: { url: string; close(): Promise<void> },
    readonly doc: OpenApiDoc,
    readonly aim: FuzzAim,
    readonly pdf: Buffer,
    readonly dataDir: string,
  ) {
    this.resolver = new SchemaResolver(doc);
  }

  /** The desktop server: an owner's session and an API key with every scope, over one of everything. */
  static start(settings: FuzzSettings): Promise<FuzzHarness> {
    return FuzzHarness.startOn(settings, {
      docPath: '/api/openapi.json',
      async seed(url, doc, sinkUrl) {
        const scopes = (doc.components?.schemas?.ApiKey?.properties?.scopes?.items?.enum ?? []) as string[];
        if (!scopes.length) throw new Error('no API key scopes in the OpenAPI document');
        const f = await createFixtures(url, sinkUrl, scopes);
        return {
          ids: f.ids,
          hints: VALUE_HINTS,
          identities: (op): Identity[] => [
            // Logging out the fuzz's own session would turn every later session case into an anonymous one.
            { name: 'session', headers: { cookie: op.key === 'POST /api/auth/logout' ? f.logoutCookie : f.cookie, origin: ORIGIN, 'x-entity-id': f.entityId } },
            // A key is pinned to its entity, yet routes still want the entityId named (QBH: header).
            { name: 'apiKey', headers: { authorization: `Bearer ${f.apiKey}`, 'x-entity-id': f.entityId } },
          ],
        };
      },
    });
  }

  /** Starts the target's server, reads its document and seeds its data. */
  static async startOn(settings: FuzzSettings, target: FuzzTarget): Promise<FuzzHarness> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-fuzz-'));
    const server = new ServerProcess(settings.serverDir, dataDir, target.launch);
    // Never leave the server behind, even when the worker exits without afterAll.
    process.once('exit', () => {
      if (server.alive && server.pid) tryKill(-server.pid);
    });
    const sink = await startSink();
    try {
      await server.start();
      const res = await fetch(`${server.url}${target.docPath}`);
      if (res.status !== 200) throw new Error(`GET ${target.docPath}: ${res.status}`);
      const doc = (await res.json()) as OpenApiDoc;
      const aim = await target.seed(server.url, doc, sink.url);
      const harness = new FuzzHarness(settings, server, sink, doc, aim, await makePdf(1), dataDir);
      harness.baselineRss = server.rssBytes() ?? 0;
      return harness;
    } catch (err) {
      await server.stop();
      await sink.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Operations in document order, destructive DELETEs last (they would remove fixture rows). */
  operations(): Operation[] {
    const ops = operationsOf(this.doc).filter((o) => !this.settings.only || o.key.includes(this.settings.only));
    return [...ops.filter((o) => o.method !== 'DELETE'), ...ops.filter((o) => o.method === 'DELETE')];
  }

  identities(op: Operation): Identity[] {
    return this.aim.identities(op);
  }

  /** Sends every case of one operation as each identity; returns the failures it found. */
  async fuzzOperation(op: Operation): Promise<Failure[]> {
    const found: Failure[] = [];
    const opMark = this.server.logCount;
    const gen = { ids: this.aim.ids, anyIds: this.aim.anyIds ?? Object.values(this.aim.ids), sinkUrl: this.sink.url, hints: this.aim.hints };
    for (const identity of this.identities(op)) {
      const t0 = Date.now();
      const cases = casesFor(op, identity, { resolver: this.resolver, gen, seed: this.settings.seed, runs: this.settings.runs, pdf: this.pdf, deepLeaves: this.aim.deepLeaves, examples: this.aim.examples?.[op.key] });
      if (this.settings.verbose) console.log(`[${identity.name}] ${op.key}: ${cases.length} cases generated in ${Date.now() - t0} ms`);
      for (const c of cases) {
        const logMark = this.server.logCount;
        const results = await Promise.all(Array.from({ length: c.concurrent ?? 1 }, () => this.send(c)));
        const bad = results.map((result) => ({ result, verdict: judge(op, result) })).filter((r) => r.verdict);
        if (this.settings.verbose) {
          if (process.env.FUZZ_VERBOSE === '2' && c.body) console.log(`  body: ${c.body.subarray(0, 400).toString('utf8')}`);
          const first = results[0];
          // FUZZ_VERBOSE=2: the start of every answer, not only of errors.
          const detail = first.kind === 'response' && (first.status >= 400 || process.env.FUZZ_VERBOSE === '2') ? ` ${first.body.subarray(0, 160).toString('utf8')}` : '';
          console.log(`[${identity.name}] ${c.label} → ${results.map((r) => (r.kind === 'error' ? r.error : r.status)).join(', ')} (${first.ms} ms)${bad.length ? ' FAIL' : ''}${detail}`);
        }
        if (!bad.length) continue;
        const { result, verdict } = bad[0];
        let outcome = `${verdict}${results.length > 1 ? ` (${bad.length} of ${results.length} concurrent copies)` : ''}`;
        const died = results.some((r) => r.kind === 'error');
        if (died) {
          await delay(200);
          outcome += this.server.alive ? ' (server still running)' : ` (server process died: ${this.server.exitInfo})`;
        }
        found.push({ operation: op.key, identity: identity.name, label: c.label, request: describeRequest(c), outcome, serverLog: this.server.logSince(logMark).slice(-8).map((l) => l.slice(0, 600)) });
        if (died || result.kind === 'error') await this.restart();
      }
    }
    const health = await this.send({ label: 'health', method: 'GET', path: '/api/health', headers: {} });
    if (health.kind !== 'response' || health.status !== 200) {
      found.push({ operation: op.key, identity: '-', label: 'GET /api/health after the batch', request: 'GET /api/health', outcome: health.kind === 'error' ? health.error : `status ${health.status}`, serverLog: this.server.log.slice(-8) });
      await this.restart();
    }
    this.failures.push(...found);
    for (const line of this.server.logSince(opMark)) {
      // pino error/fatal only: stderr also carries libraries' warnings (pdf-lib on a broken PDF).
      if (/^\{"level":(5|6)0,/.test(line)) this.errorLogs.push({ operation: op.key, line });
    }
    return found;
  }

  async send(c: FuzzCase): Promise<RawResult> {
    this.requests++;
    const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, v === ORIGIN ? this.server.url : v]));
    return send(this.server.url, { method: c.method, path: c.path, headers, body: c.body });
  }

  /** Starts the server again on the same data dir (same users, keys and rows) after it died or hung. */
  async restart(): Promise<void> {
    if (this.server.alive) await this.server.stop();
    resetConnections();
    await this.server.start();
    this.restarts++;
    this.baselineRss = this.server.rssBytes() ?? 0;
  }

  replayHint(op?: Operation): string {
    return `FUZZ_SEED=${this.settings.seed} FUZZ_RUNS=${this.settings.runs}${op ? ` FUZZ_ONLY='${op.key}'` : ''} npx vitest run ${this.settings.file ?? 'test/fuzz'}`;
  }

  async close(): Promise<void> {
    await this.server.stop();
    await this.sink.close();
    resetConnections();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A server log line, short: pino errors as `Type: message (at server/… frame)`, stderr as is. */
export function summarizeLog(line: string): string {
  if (line.startsWith('stderr: ')) return line.slice(0, 200);
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
    if (!entry.err) return `${entry.msg ?? ''}`.slice(0, 200);
    const frame = entry.err.stack?.split('\n').find((l) => /\/server\//.test(l))?.trim();
    return `${entry.msg}: ${entry.err.type}: ${entry.err.message}${frame ? ` (${frame.replace(/^at /, 'at ').replace(/\(?\/.*?\/server\//, '(server/')})` : ''}`.slice(0, 300);
  } catch {
    return line.slice(0, 200);
  }
}

export function formatFailures(failures: Failure[], limit = 25): string {
  const lines = failures.slice(0, limit).map((f) => {
    const log = f.serverLog.filter((l) => /"level":(50|60)|stderr:/.test(l)).slice(-3).map(summarizeLog);
    return `  - [${f.identity}] ${f.label}\n      ${f.request}\n      → ${f.outcome}${log.length ? `\n      server: ${log.join('\n              ')}` : ''}`;
  });
  if (failures.length > limit) lines.push(`  … and ${failures.length - limit} more`);
  return lines.join('\n');
}

function tryKill(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
