import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFSignature } from 'pdf-lib';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { makeFormPdf, makeRotatedPdf } from '../fixtures/pdf.js';
import { PNG_DATA_URL, signingToken, uploadPdf } from './documents-helpers.js';
import { extractSignature, verifyCms } from '../helpers/pdf-seal.js';

let server: TestServer;
let owner: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ entityName: 'Acme Seals' });
});
afterAll(() => server.close());

const base = '/api/documents/signature-requests';

async function pageText(pdf: Buffer, pageNumber: number): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: `${path.resolve('node_modules/pdfjs-dist/standard_fonts')}/` }).promise;
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  const text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
  await doc.destroy();
  return text;
}

async function completedRequest() {
  const doc = await uploadPdf(owner, { data: await makeFormPdf(), name: 'Form.pdf' });
  const created = await owner.post(base, { documentId: doc.body.id, title: 'Sealed deal', signers: [{ name: 'Ada Drawn', email: 'ada@example.com' }, { name: 'Bob Typed', email: 'bob@example.com' }] });
  const [ada, bob] = created.body.signers;
  await owner.post(`${base}/${created.body.id}/fields`, {
    fields: [
      { signerId: ada.id, type: 'signature', page: 1, x: 0.1, y: 0.7, width: 0.3, height: 0.08 },
      { signerId: ada.id, type: 'checkbox', page: 1, x: 0.1, y: 0.6, width: 0.04, height: 0.03 },
      { signerId: ada.id, type: 'text', page: 1, x: 0.5, y: 0.6, width: 0.4, height: 0.04, label: 'Company' },
      { signerId: bob.id, type: 'signature', page: 1, x: 0.5, y: 0.7, width: 0.3, height: 0.08 },
      { signerId: bob.id, type: 'name', page: 1, x: 0.5, y: 0.8, width: 0.3, height: 0.04 },
    ],
  });
  await owner.patch(`${base}/${created.body.id}`, { action: 'send' });
  for (const [signer, values] of [
    [ada, { signature: PNG_DATA_URL, checkbox: true, text: 'Acme Ltd' }],
    [bob, { signature: 'Bob Typed' }],
  ] as const) {
    const token = await signingToken(owner, created.body.id, signer.id);
    const view = await server.anon.get(`/api/sign/${token}`);
    const fields = view.body.fields.filter((f: { type: string }) => f.type in values).map((f: { id: string; type: keyof typeof values }) => ({ fieldId: f.id, value: values[f.type] }));
    const res = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields }, { headers: { 'user-agent': `${signer.name} agent` } });
    expect(res.status).toBe(200);
  }
  return { requestId: created.body.id as string, documentSha: doc.body.sha256 as string, token: await signingToken(owner, created.body.id, bob.id).catch(() => null) };
}

describe('sealed PDF', () => {
  it('is PKCS#7-signed over its byte range by the entity certificate, with a certificate page', async () => {
    const { requestId, documentSha } = await completedRequest();
    const detail = await owner.get(`${base}/${requestId}`);
    expect(detail.body.status).toBe('completed');
    const res = await fetch(`${server.url}${base}/${requestId}/document`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(crypto.createHash('sha256').update(pdf).digest('hex')).toBe(detail.body.signedDocumentSha256);

    const { signed, der } = extractSignature(pdf);
    const check = verifyCms(signed, der);
    expect(check.digestMatches).toBe(true);
    expect(check.signatureValid).toBe(true);
    expect(check.cert.subject.getField('CN').value).toBe('Acme Seals document seal');

    const reopened = await PDFDocument.load(new Uint8Array(pdf));
    expect(reopened.getPageCount()).toBe(2);
    // The form was flattened: the only field left is the seal's signature field.
    expect(reopened.getForm().getFields().map((f) => f instanceof PDFSignature)).toEqual([true]);
    const certificatePage = await pageText(pdf, 2);
    expect(certificatePage).toContain('Certificate of completion');
    expect(certificatePage).toContain('Ada Drawn');
    expect(certificatePage).toContain('Bob Typed agent');
    expect(certificatePage).toContain(documentSha);
    const stamped = await pageText(pdf, 1);
    expect(stamped).toContain('Acme Ltd');
    expect(stamped).toContain('Bob Typed');
    // The typed signature is drawn in the bundled handwriting font (Caveat, embedded as a subset).
    const fonts = reopened.context
      .enumerateIndirectObjects()
      .map(([, o]) => o)
      .filter((o): o is PDFDict => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('Font'))
      .map((d) => String(d.get(PDFName.of('BaseFont'))));
    expect(fonts.some((name) => /Caveat/.test(name)), fonts.join(', ')).toBe(true);

    // One flipped byte inside the signed range breaks the digest.
    const tampered = Buffer.from(pdf);
    tampered[100] ^= 0xff;
    const again = extractSignature(tampered);
    expect(verifyCms(again.signed, again.der).digestMatches).toBe(false);
  });

  it('keeps the sealing key sealed at rest and reuses one certificate per entity', async () => {
    await completedRequest();
    const rows = server.ctx.sqlite.prepare('select entity_id, key_sealed, cert_pem from signing_certificates').all() as { entity_id: string; key_sealed: string; cert_pem: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].entity_id).toBe(owner.entityId);
    expect(rows[0].key_sealed.startsWith('v1.')).toBe(true);
    expect(rows[0].key_sealed).not.toContain('PRIVATE KEY');
    expect(rows[0].cert_pem).toContain('BEGIN CERTIFICATE');
  });

  it('serves the sealed PDF to signers once completed, and 409 to the sender before', async () => {
    const doc = await uploadPdf(owner);
    const draft = await owner.post(base, { documentId: doc.body.id, title: 'Not yet' });
    const early = await owner.get(`${base}/${draft.body.id}/document`);
    expect(early.status).toBe(409);
    const { requestId } = await completedRequest();
    const detail = await owner.get(`${base}/${requestId}`);
    const row = server.ctx.sqlite.prepare('select token_sealed from signers where request_id = ? limit 1').get(requestId) as { token_sealed: string };
    const token = server.ctx.secrets.open(row.token_sealed).toString('utf8');
    const res = await fetch(`${server.url}/api/sign/${token}/document`);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(crypto.createHash('sha256').update(pdf).digest('hex')).toBe(detail.body.signedDocumentSha256);
  });

  it('stores signing tokens only as hashes (and sealed), never in plain text', async () => {
    const rows = server.ctx.sqlite.prepare('select token_hash, token_sealed from signers').all() as { token_hash: string; token_sealed: string }[];
    for (const r of rows) {
      const token = server.ctx.secrets.open(r.token_sealed).toString('utf8');
      expect(r.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
      expect(r.token_sealed).not.toContain(token);
    }
  });
});

/** Where a text run sits on the page as displayed (fractions, origin top-left) and whether it reads upright. */
async function textPlacement(pdf: Buffer, pageNumber: number, text: string) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: `${path.resolve('node_modules/pdfjs-dist/standard_fonts')}/` }).promise;
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const item = (await page.getTextContent()).items.find((i) => 'str' in i && i.str === text) as { transform: number[] } | undefined;
  if (!item) throw new Error(`${text} not found on page ${pageNumber}`);
  const [a, b, , , e, f] = pdfjs.Util.transform(viewport.transform, item.transform);
  await doc.destroy();
  return { x: e / viewport.width, y: f / viewport.height, upright: a > 0 && Math.abs(b) < 1e-6 };
}

describe('fields on rotated pages', () => {
  it('stamps each value where it was placed on the page as displayed, upright', async () => {
    const rotations = [0, 90, 180, 270];
    const doc = await uploadPdf(owner, { data: await makeRotatedPdf(rotations) });
    expect(doc.body.pages).toEqual([
      { width: 612, height: 792 },
      { width: 792, height: 612 },
      { width: 612, height: 792 },
      { width: 792, height: 612 },
    ]);
    const created = await owner.post(base, { documentId: doc.body.id, title: 'Rotated', signers: [{ name: 'Rex', email: 'rex@example.com' }] });
    const signerId = created.body.signers[0].id;
    const box = { x: 0.2, y: 0.3, width: 0.5, height: 0.06 };
    await owner.post(`${base}/${created.body.id}/fields`, { fields: rotations.map((_, i) => ({ signerId, type: 'text', page: i + 1, label: `p${i + 1}`, ...box })) });
    await owner.patch(`${base}/${created.body.id}`, { action: 'send' });
    const token = await signingToken(owner, created.body.id, signerId);
    const view = await server.anon.get(`/api/sign/${token}`);
    const signed = await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields: view.body.fields.map((f: { id: string; page: number }) => ({ fieldId: f.id, value: `VALUE${f.page}` })) });
    expect(signed.body.request.status).toBe('completed');
    const res = await fetch(`${server.url}${base}/${created.body.id}/document`, { headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    const pdf = Buffer.from(await res.arrayBuffer());
    for (let page = 1; page <= rotations.length; page++) {
      const at = await textPlacement(pdf, page, `VALUE${page}`);
      expect(at.upright).toBe(true);
      expect(at.x).toBeGreaterThanOrEqual(box.x);
      expect(at.x).toBeLessThan(box.x + 0.05);
      expect(at.y).toBeGreaterThan(box.y);
      expect(at.y).toBeLessThanOrEqual(box.y + box.height);
    }
  });
});
