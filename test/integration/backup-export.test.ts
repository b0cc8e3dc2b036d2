import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { cleanupBackups, PASSPHRASE } from './backup-helpers.js';
import { draftRequest, PNG_DATA_URL, signingToken, uploadPdf } from './documents-helpers.js';
import { extractSignature, verifyCms } from '../helpers/pdf-seal.js';
import { invoice, postEvent } from './ledger-helpers.js';
import { extractDocumentTexts } from '../../server/documents/extract-texts.js';

let a: TestServer;
let owner: SessionClient;
let requestId: string;
let completedId: string;
let exported: { file: string; size: number; secretsIncluded: boolean; entity: { id: string } };

beforeAll(async () => {
  a = await startTestServer();
  owner = await a.signup({ entityName: 'Acme Repairs' });
  for (let i = 0; i < 5; i++) {
    const t = await owner.post('/api/helpdesk/tickets', { subject: `Broken thing ${i}`, description: `=1+${i} it broke` });
    expect(t.status).toBe(201);
    expect((await owner.post(`/api/helpdesk/tickets/${t.body.id}/messages`, { body: `Looking at it ${i}` })).status).toBe(201);
  }
  for (let i = 0; i < 6; i++) await postEvent(owner, invoice(`${10 + i}.00`, '2.00'));
  const folder = await owner.post('/api/documents/folders', { name: 'Contracts' });
  expect(folder.status).toBe(201);
  expect((await uploadPdf(owner, { name: 'Lease.pdf', folderId: folder.body.id })).status).toBe(201);
  const draft = await draftRequest(owner);
  requestId = draft.requestId;
  expect((await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
  // A completed request: its sealed PDF must still verify on the importing install.
  const signed = await draftRequest(owner, { signers: [{ name: 'Ada Signer', email: 'ada@example.com' }] });
  expect((await owner.patch(`/api/documents/signature-requests/${signed.requestId}`, { action: 'send' })).status).toBe(200);
  const token = await signingToken(owner, signed.requestId, signed.signers[0]!.id);
  const view = await a.anon.get(`/api/sign/${token}`);
  const fields = view.body.fields.map((f: { id: string; type: string }) => ({ fieldId: f.id, value: f.type === 'signature' ? PNG_DATA_URL : '2026-01-02' }));
  expect((await a.anon.post(`/api/sign/${token}`, { action: 'sign', fields })).status).toBe(200);
  completedId = signed.requestId;
  expect((await owner.post('/api/webhook-subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).status).toBe(201);
  expect((await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
  // The PDFs' text, read after their uploads, is exported with them.
  await extractDocumentTexts(a.ctx);
  const res = await owner.post(`/api/backups/export?entityId=${owner.entityId}`);
  expect(res.status).toBe(201);
  exported = res.body;
});

afterAll(async () => {
  cleanupBackups(a);
  await a.close();
});

/** The API answers a user gets for every list and detail of the business. */
async function answers(c: Client): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const get = async (p: string) => {
    const res = await c.get(p);
    expect(res.status, p).toBe(200);
    out[p] = res.body;
    return res.body;
  };
  const tickets = await get('/api/helpdesk/tickets');
  for (const t of tickets) await get(`/api/helpdesk/tickets/${t.id}`);
  await get('/api/helpdesk/categories');
  const events = await get('/api/ledger/events');
  for (const e of events.events) await get(`/api/ledger/events/${e.id}`);
  for (const p of ['/api/ledger/journal', '/api/ledger/trial-balance?asOf=2099-01-01T00:00:00Z', '/api/ledger/accounts', '/api/ledger/reports/profit-and-loss?from=2000-01-01T00:00:00Z&to=2099-01-01T00:00:00Z', '/api/ledger/reports/balance-sheet?asOf=2099-01-01T00:00:00Z', '/api/ledger/settings']) await get(p);
  const docs = await get('/api/documents');
  for (const d of docs) await get(`/api/documents/${d.id}`);
  await get('/api/documents/folders');
  const requests = await get('/api/documents/signature-requests');
  for (const r of requests) for (const p of ['', '/signers', '/fields', '/audit-trail', '/audit-trail/verify']) await get(`/api/documents/signature-requests/${r.id}${p}`);
  const hooks = await get('/api/webhook-subscriptions');
  for (const h of hooks) await get(`/api/webhook-subscriptions/${h.id}`);
  return out;
}

describe('export business', () => {
  it('writes one verified archive with rows, files, secrets and a readable part', () => {
    expect(exported.secretsIncluded).toBe(true);
    expect(fs.statSync(exported.file).size).toBe(exported.size);
    const names = execFileSync('tar', ['-tf', exported.file], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'rows.json', 'secrets.json', 'readable/helpdesk/tickets.csv', 'readable/helpdesk/messages.csv', 'readable/ledger/journal.csv', 'readable/ledger/events.csv', 'readable/signatures/signature-requests.csv', 'readable/signatures/audit.csv', 'readable/documents/Contracts/Lease.pdf']));
    const tickets = execFileSync('tar', ['-xOf', exported.file, 'readable/helpdesk/tickets.csv'], { encoding: 'utf8' });
    expect(tickets.split('\r\n')[0]).toMatch(/^id,ticket_number,subject/);
    expect(tickets).toContain('Broken thing 3');
    // A formula-looking text never runs when the CSV is opened in a spreadsheet.
    expect(tickets).toContain("'=1+3 it broke");
    const journal = execFileSync('tar', ['-xOf', exported.file, 'readable/ledger/journal.csv'], { encoding: 'utf8' });
    expect(journal.trim().split('\r\n').length).toBeGreaterThan(6);
  });
});

describe('import business on a fresh install', () => {
  it('gives identical API answers for every list and detail, with secrets re-sealed', async () => {
    const b = await startTestServer();
    try {
      const other = await b.signup({ entityName: 'Someone else' });
      const imported = await other.post('/api/backups/import', { file: exported.file, passphrase: PASSPHRASE });
      expect(imported.status).toBe(201);
      expect(imported.body.entity.id).toBe(owner.entityId);
      expect(imported.body.secrets.missing).toEqual([]);
      expect(imported.body.secrets.restored).toBeGreaterThanOrEqual(3); // signing key, signer tokens, webhook secret
      const there = makeClient(b.url, { cookie: other.cookie, origin: b.url, 'x-entity-id': owner.entityId });
      expect(await answers(there)).toEqual(await answers(owner));
      // The search indexes are rebuilt as the rows are imported (the PDFs' text came with them).
      for (const p of ['/api/search?q=sample', '/api/search?q=broken', '/api/search?q=invoice&limit=20', '/api/documents?q=sample', '/api/documents?q=lease', '/api/ledger/events?q=invoice']) {
        const here = (await owner.get(p)).body;
        expect((await there.get(p)).body, p).toEqual(here);
      }
      expect((await there.get('/api/documents?q=sample')).body.length).toBeGreaterThan(0);
      // The PDF bytes are the same.
      const docs = (await owner.get('/api/documents')).body;
      for (const d of docs) expect(Buffer.from((await there.get(`/api/documents/${d.id}/content`)).body as string)).toEqual(Buffer.from((await owner.get(`/api/documents/${d.id}/content`)).body as string));
      // The sealed PDF: the same bytes, and its seal still verifies.
      const sealedPdf = async (c: SessionClient | Client, url: string, cookie: string) => {
        const res = await fetch(`${url}/api/documents/signature-requests/${completedId}/document`, { headers: { cookie, 'x-entity-id': owner.entityId } });
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      };
      const pdfThere = await sealedPdf(there, b.url, other.cookie);
      expect(pdfThere.equals(await sealedPdf(owner, a.url, owner.cookie))).toBe(true);
      const { signed, der } = extractSignature(pdfThere);
      expect(verifyCms(signed, der)).toMatchObject({ digestMatches: true, signatureValid: true });
      // Every secret opens with this install's key.
      const sealed = b.ctx.sqlite.prepare("SELECT secret_sealed AS s FROM webhook_secrets WHERE entity_id = ?").all(owner.entityId) as { s: string }[];
      for (const r of sealed) expect(b.ctx.secrets.open(r.s).toString('utf8')).toMatch(/^whsec_/);

      // Twice: refused, nothing changes.
      const again = await other.post('/api/backups/import', { file: exported.file, passphrase: PASSPHRASE });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(/already has the business/);
    } finally {
      cleanupBackups(b);
      await b.close();
    }
  });

  it('into the install it came from: 409, no silent merge', async () => {
    const res = await owner.post('/api/backups/import', { file: exported.file });
    expect(res.status).toBe(409);
  });

  it('without the passphrase: everything but the secrets, and it says which', async () => {
    const b = await startTestServer();
    try {
      const other = await b.signup();
      const res = await other.post('/api/backups/import', { file: exported.file });
      expect(res.status).toBe(201);
      expect(res.body.secrets).toMatchObject({ inExport: true, restored: 0 });
      expect(res.body.secrets.missing).toContain('webhook_secrets.secret_sealed');
    } finally {
      await b.close();
    }
  });

  it('a wrong passphrase, a damaged archive, a whole-install backup: 400 and nothing imported', async () => {
    const b = await startTestServer();
    try {
      const other = await b.signup();
      const wrong = await other.post('/api/backups/import', { file: exported.file, passphrase: 'not the passphrase' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatch(/Wrong recovery passphrase/);
      const damaged = `${exported.file}.damaged`;
      const bytes = fs.readFileSync(exported.file);
      bytes[bytes.length - 3000] ^= 0xff;
      fs.writeFileSync(damaged, bytes);
      const bad = await other.post('/api/backups/import', { file: damaged });
      expect(bad.status).toBe(400);
      const backup = await owner.post('/api/backups');
      expect(backup.status).toBe(201);
      const whole = await other.post('/api/backups/import', { file: backup.body.file });
      expect(whole.status).toBe(400);
      expect(whole.body.error).toMatch(/whole install/);
      expect((await other.get('/api/entities')).body.map((e: { id: string }) => e.id)).not.toContain(owner.entityId);
      expect(b.ctx.sqlite.prepare('SELECT count(*) AS n FROM helpdesk_tickets').get()).toEqual({ n: 0 });
    } finally {
      await b.close();
    }
  });
});
