import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type StartOptions } from '../../server/main.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** A client with no credentials. */
  anon: Client;
  /** Signs up a new user with a new entity and returns a session client for it. */
  signup(overrides?: Partial<{ email: string; password: string; name: string; entityName: string }>): Promise<SessionClient>;
  /** Creates an API key through `client` and returns a client that uses it. */
  apiKeyClient(client: SessionClient, scopes: string[], entityId?: string): Promise<Client & { key: string; keyId: string }>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw body (Buffer/string) sent as is; set content-type in headers. */
  raw?: BodyInit;
}

export interface Client {
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface SessionClient extends Client {
  user: { id: string; email: string; name: string };
  entityId: string;
  email: string;
  password: string;
  cookie: string;
}

export function makeClient(baseUrl: string, defaults: Record<string, string> = {}): Client {
  const request = async (method: string, p: string, opts: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...defaults, ...opts.headers };
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + p, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    request,
    get: (p, o) => request('GET', p, o),
    post: (p, b, o) => request('POST', p, { ...o, body: b }),
    put: (p, b, o) => request('PUT', p, { ...o, body: b }),
    patch: (p, b, o) => request('PATCH', p, { ...o, body: b }),
    delete: (p, b, o) => request('DELETE', p, { ...o, body: b }),
  };
}

let counter = 0;

/** Starts the real server on a random port with a fresh temp data dir. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-test-'));
  const server = await startServer({ port: 0, logLevel: (process.env.TEST_LOG_LEVEL as 'error' | undefined) ?? 'silent', backgroundLoops: false, scheduledBackups: false, ...options, dataDir });
  const anon = makeClient(server.url);
  const t: TestServer = {
    ...server,
    dataDir,
    anon,
    async close() {
      await server.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async signup(overrides = {}) {
      const n = ++counter;
      const input = {
        email: `user${n}-${Date.now()}@example.com`,
        password: 'correct horse battery staple',
        name: `User ${n}`,
        entityName: `Entity ${n}`,
        ...overrides,
      };
      const res = await anon.post('/api/auth/signup', input);
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
      const client = makeClient(server.url, { cookie, origin: server.url, 'x-entity-id': res.body.entity.id });
      return { ...client, user: res.body.user, entityId: res.body.entity.id, email: input.email, password: input.password, cookie };
    },
    async apiKeyClient(client, scopes, entityId = client.entityId) {
      const res = await client.post('/api/settings/api-keys', { name: `key ${++counter}`, scopes }, { headers: { 'x-entity-id': entityId } });
      if (res.status !== 201) throw new Error(`api key failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { ...makeClient(server.url, { authorization: `Bearer ${res.body.key}` }), key: res.body.key, keyId: res.body.id };
    },
  };
  return t;
}
