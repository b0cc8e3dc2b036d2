// Requests a careless client or an attacker sends: each is refused with a clear 4xx `{error}`,
// the server stays up, and limits hold under concurrency.
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer, type ApiResponse, type SessionClient, type TestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';

let server: TestServer;
let owner: SessionClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
});
afterAll(() => server.close());

async function expectAlive() {
  expect((await server.anon.get('/api/health')).status).toBe(200);
}

function expectClientError(res: { status: number; body: unknown }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
}

describe('uploads', () => {
  /** Sends an upload over a raw socket: `declared` may exceed what is sent, and the socket may be closed mid-body. */
  async function rawUpload(body: Buffer, opts: { declared: number; closeAfterMs?: number }): Promise<string> {
    const port = Number(new URL(server.url).port);
    return new Promise((resolve) => {
      let got = '';
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.write(
          `POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${owner.cookie}\r\nOrigin: ${server.url}\r\nx-entity-id: ${owner.entityId}\r\n` +
            `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${opts.declared}\r\nConnection: close\r\n\r\n`,
        );
        sock.write(body);
        if (opts.closeAfterMs !== undefined) setTimeout(() => sock.destroy(), opts.closeAfterMs);
      });
      sock.on('data', (d) => (got += d));
      sock.on('error', () => undefined);
      sock.on('close', () => resolve(got.split('\r\n')[0]));
      setTimeout(() => sock.destroy(), 3000);
    });
  }
  const boundary = 'XyZ123';
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;

  it('a multipart upload that ends inside the file part is a 400 and the server stays up', async () => {
    const body = Buffer.concat([Buffer.from(fileHead), (await makePdf(1)).subarray(0, 500)]);
    expect(await rawUpload(body, { declared: body.length })).toBe('HTTP/1.1 400 Bad Request');
    await expectAlive();
  });

  it.each([
    ['inside the file part', Buffer.from(fileHead + '%PDF-1.7 partial')],
    ['inside a part header', Buffer.from(`--${boundary}\r\nContent-Disp`)],
  ])('a client that hangs up %s does not stop the server', async (_where, body) => {
    await rawUpload(body, { declared: body.length + 5000, closeAfterMs: 100 });
    await expectAlive();
    // and uploads still work
    const ok = await owner.request('POST', '/api/documents', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
    expect(ok.status).toBe(201);
  });

  it('a multipart body with too many parts is refused', async () => {
    const boundary = 'b0undary';
    const parts = Array.from({ length: 100 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('');
    const res = await owner.request('POST', '/api/documents', { raw: `${parts}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect([400, 413]).toContain(res.status);
    expect(res.body.error).toEqual(expect.any(String));
    await expectAlive();
  });

  it('a multipart body with a malformed header is a 400', async () => {
    const res = await owner.request('POST', '/api/documents', { raw: 'garbage without any boundary', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } });
    expectClientError(res, 400);
    await expectAlive();
  });
});

describe('cookies', () => {
  const bad = 'bureau_session=%E0%A4%A';

  it('a session cookie with malformed percent-encoding is ignored, not a 500', async () => {
    expectClientError(await server.anon.get('/api/auth/me', { headers: { cookie: bad } }), 401);
    const login = await server.anon.post('/api/auth/login', { email: owner.email, password: owner.password }, { headers: { cookie: bad } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
  });

  it('a malformed cookie of the same name does not hide a valid one', async () => {
    const res = await server.anon.get('/api/auth/me', { headers: { cookie: `${bad}; ${owner.cookie}` } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(owner.user.id);
  });
});

describe('bodies and paths', () => {
  it.each([
    ['gzip', zlib.deflateRawSync(Buffer.from('{"subject":"x"}'))],
    ['deflate', Buffer.from('definitely not deflate')],
    ['br', Buffer.from('not brotli at all, really')],
  ])('a JSON body whose %s content encoding cannot be decoded is a 400', async (encoding, raw) => {
    const res = await owner.request('POST', '/api/helpdesk/tickets', { raw: new Uint8Array(raw), headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
    expectClientError(res, 400);
  });

  it('an unknown content encoding is a 415', async () => {
    const res = await owner.request('POST', '/api/helpdesk/tickets', { raw: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'snappy' } });
    expectClientError(res, 415);
  });

  it.each(['/api/helpdesk/tickets/%', '/api/helpdesk/tickets/%E0%A4%A', '/api/documents/%zz'])('a path with malformed percent-encoding (%s) is a 400', async (p) => {
    expectClientError(await owner.get(p), 400);
  });

  it('a 10,000-item invalid array gets a small error body that says how much it left out', async () => {
    const res = await owner.post('/api/settings/api-keys', { name: 'k', scopes: Array.from({ length: 10_000 }, (_, i) => `nope:${i}`) });
    expectClientError(res, 400);
    const size = JSON.stringify(res.body).length;
    expect(size).toBeLessThan(8 * 1024);
    expect(res.body.details.length).toBeLessThanOrEqual(20);
    expect(res.body.detailsOmitted).toBeGreaterThan(9_000);
  });
});

describe('throttles under concurrency', () => {
  it('a burst of concurrent logins for one e-mail gets no more password checks than the limit', async () => {
    const victim = await server.signup();
    const wrong = Array.from({ length: 39 }, () => server.anon.post('/api/auth/login', { email: victim.email, password: 'guess guess guess' }));
    const right = server.anon.post('/api/auth/login', { email: victim.email, password: victim.password });
    const results = await Promise.all([...wrong, right]);
    const statuses = results.map((r) => r.status);
    // 5 failures per e-mail per 15 minutes: at most 5 attempts are evaluated, the rest are 429.
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    expect(statuses.every((s) => [200, 401, 429].includes(s))).toBe(true);
    // the right password, sent while the e-mail is locked, does not get in
    expect((await server.anon.post('/api/auth/login', { email: victim.email, password: victim.password })).status).toBe(429);
  });

  it('a burst of concurrent logins from one IP across e-mails stops at the per-IP limit', async () => {
    const fresh = await startTestServer();
    try {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => fresh.anon.post('/api/auth/login', { email: `nobody${i}@example.com`, password: 'guess guess guess' })));
      const evaluated = results.filter((r) => r.status === 401).length;
      expect(evaluated).toBeLessThanOrEqual(20);
      expect(results.filter((r) => r.status === 429).length).toBe(40 - evaluated);
    } finally {
      await fresh.close();
    }
  });

  it('a burst of unknown signing links is cut at the limit, not after', async () => {
    const fresh = await startTestServer();
    try {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => fresh.anon.get(`/api/sign/unknown-link-${i}-abcdefghijklmnopqrstuvwxyz`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(20);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    } finally {
      await fresh.close();
    }
  });
});

describe('ticket list as the contract says', () => {
  let lister: SessionClient;
  const ids: string[] = [];

  beforeAll(async () => {
    lister = await server.signup();
    for (let i = 0; i < 57; i++) {
      const subject = i === 3 ? 'Grüße aus der STRASSE' : `Printer ${i} jammed`;
      const res = await lister.post('/api/helpdesk/tickets', { subject, contactEmail: `customer${i}@example.com`, contactName: i === 7 ? 'Zoë Ångström' : `Customer ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
  });

  it('without paging parameters returns every ticket', async () => {
    const res = await lister.get('/api/helpdesk/tickets');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(57);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
    expect(res.headers.get('x-total-count')).toBe('57');
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it('pages only when asked to, through every ticket exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse<{ id: string }[]> = await lister.get(`/api/helpdesk/tickets?limit=20${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.length).toBeLessThanOrEqual(20);
      seen.push(...res.body.map((t: { id: string }) => t.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const byCursorOnly = await lister.get(`/api/helpdesk/tickets?cursor=${(await lister.get('/api/helpdesk/tickets?limit=1')).headers.get('x-next-cursor')}`);
    expect(byCursorOnly.body).toHaveLength(50);
  });

  it('search matches the subject only; ticket number and contact have their own filters', async () => {
    const ticket = (await lister.get(`/api/helpdesk/tickets/${ids[10]}`)).body;
    const digits = ticket.ticketNumber.split('-').at(-1);
    expect(digits, ticket.ticketNumber).not.toBe('');
    expect((await lister.get(`/api/helpdesk/tickets?search=${encodeURIComponent(ticket.ticketNumber)}`)).body).toEqual([]);
    expect((await lister.get(`/api/helpdesk/tickets?ticketNumber=${ticket.ticketNumber.toLowerCase()}`)).body.map((t: { id: string }) => t.id)).toEqual([ids[10]]);
    expect((await lister.get(`/api/helpdesk/tickets?ticketNumber=${digits}`)).body.map((t: { id: string }) => t.id)).toContain(ids[10]);
    expect((await lister.get('/api/helpdesk/tickets?search=grüße aus der strasse')).body.map((t: { id: string }) => t.id)).toEqual([ids[3]]);
    expect((await lister.get('/api/helpdesk/tickets?search=printer 12 JAMMED')).body.map((t: { id: string }) => t.id)).toEqual([ids[12]]);
    expect((await lister.get('/api/helpdesk/tickets?contact=CUSTOMER33@')).body.map((t: { id: string }) => t.id)).toEqual([ids[33]]);
    expect((await lister.get(`/api/helpdesk/tickets?contact=${encodeURIComponent('zoë ångström')}`)).body.map((t: { id: string }) => t.id)).toEqual([ids[7]]);
    expect((await lister.get('/api/helpdesk/tickets?search=customer33')).body).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('every object schema defines each property it lists as required', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const problems: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const o = node as { required?: unknown; properties?: Record<string, unknown> };
      if (Array.isArray(o.required)) {
        for (const name of o.required) if (!o.properties || !(name in o.properties)) problems.push(`${where}: required "${name}" is not defined`);
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`);
    };
    walk(doc, '#');
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('an API key header that is not a key', () => {
  it('is a 401 with an error, whatever it holds', async () => {
    for (const value of ['Bearer', 'Bearer ak_', 'Basic abc', `Bearer ak_${'x'.repeat(10_000)}`]) {
      expectClientError(await makeClient(server.url, { authorization: value }).get('/api/auth/me'), 401);
    }
  });
});
