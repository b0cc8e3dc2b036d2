// The hosted instance facing strangers' strings and tenants' rows (issue 25): public bodies refuse
// NUL and unpaired surrogates with 400; a push is checked per change against the table a device
// has; a damaged mirrored row costs its own tenant a 409 and nobody else anything; a failing
// request logs one bounded line. Run on PGlite and on PostgreSQL (one file each).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/auth/passwords.js';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { rows } from '../../server/hosted/schema.js';
import { call, Device, link, linkInput } from './client.js';

const NUL = 'a\u0000b';
const LONE = 'x\ud800y';

export function hardeningSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted hardening on ${name}`, () => {
    let hosted: RunningHosted;
    let base: string;
    let log = '';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-hardening-'));
    const sink = new Writable({
      write(chunk, _enc, done) {
        log += String(chunk);
        done();
      },
    });

    beforeAll(async () => {
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'warn', logDestination: sink, publicUrl: 'http://127.0.0.1:1' });
      base = hosted.url;
    }, 120_000);
    afterAll(async () => {
      await hosted?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const expectError = (res: { status: number; body: any }, status: number) => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toEqual(expect.any(String));
    };

    describe('public routes refuse strings the store cannot hold', () => {
      it.each([
        ['name', NUL],
        ['name', LONE],
        ['entityName', NUL],
        ['entityName', LONE],
        ['deviceName', NUL],
        ['deviceName', LONE],
        ['password', `correct horse ${NUL}`],
        ['password', `correct horse ${LONE}`],
      ])('link with %s = %j is 400 {error}', async (field, value) => {
        expectError(await call(base, 'POST', '/sync/v1/link', { body: { ...linkInput(), [field]: value } }), 400);
      });

      it('link and join with a NUL or a lone surrogate in the e-mail or code are 400', async () => {
        expectError(await call(base, 'POST', '/sync/v1/link', { body: { ...linkInput(), email: `a${NUL}@example.com` } }), 400);
        expectError(await call(base, 'POST', '/sync/v1/link', { body: { ...linkInput(), email: `a${LONE}@example.com` } }), 400);
        const { input } = await link(base);
        for (const patch of [{ code: `ABCDE-${NUL}` }, { code: `ABCDE-${LONE}` }, { deviceName: NUL }, { name: LONE }]) {
          expectError(await call(base, 'POST', '/sync/v1/join', { body: { code: 'ABCDE-FGHIJ', email: input.email, password: input.password, deviceName: 'Laptop', ...patch } }), 400);
        }
      });

      it('malformed JSON and a body that is not JSON are 400 on link, join and the signing page', async () => {
        const token = 'x'.repeat(43);
        for (const route of ['/sync/v1/link', '/sync/v1/join', `/api/sign/${token}`]) {
          expectError(await call(base, 'POST', route, { body: '{"email": ' }), 400);
          expectError(await call(base, 'POST', route, { body: 'email=a', headers: { 'content-type': 'text/plain' } }), 400);
        }
      });

      it('a signing page body with a NUL or a lone surrogate is 400', async () => {
        const token = 'y'.repeat(43);
        expectError(await call(base, 'POST', `/api/sign/${token}`, { body: { action: 'decline', reason: NUL } }), 400);
        expectError(await call(base, 'POST', `/api/sign/${token}`, { body: { action: 'sign', fields: [{ fieldId: crypto.randomUUID(), value: LONE }] } }), 400);
      });

      it('a relay quote for a chain named with a NUL is 400 or the relay is not configured', async () => {
        const res = await call(base, 'GET', `/api/relay/quote?chain=${encodeURIComponent(NUL)}`);
        expect([400, 503]).toContain(res.status);
        expect(res.body.error).toEqual(expect.any(String));
      });
    });

    describe('push: each change is checked against the table a device has', () => {
      /** The rows of an entity as stored. */
      const storedRows = (entityId: string) => hosted.ctx.store.db.select({ rowId: rows.rowId }).from(rows).where(eq(rows.entityId, entityId));

      it('rejects each bad change with a reason and stores none of them; the good ones in the same push are accepted', async () => {
        const { device, input } = await link(base);
        const id = () => crypto.randomUUID();
        const goodFirst = device.change('folders', id(), { name: 'Contracts', entity_id: input.entityId });
        const documentId = id();
        const goodDocument = device.change('documents', documentId, { id: documentId, entity_id: input.entityId, name: 'a.pdf', sha256: 'a'.repeat(64), size: 10, page_count: 1, pages: '[{"width":612,"height":792}]', position: null, _deleted: 0 });
        const bad: [string, ReturnType<Device['change']>, RegExp][] = [
          ['NUL in a value', device.change('folders', id(), { name: NUL }), /NUL/],
          ['lone surrogate in a value', device.change('folders', id(), { name: LONE }), /surrogate/],
          ['NUL in the row id', device.change('folders', `r${NUL}`, { name: 'x' }), /row id/],
          ['lone surrogate in the row id', device.change('folders', `r${LONE}`, { name: 'x' }), /row id/],
          ['unknown table', device.change('no_such_table', id(), { name: 'x' }), /Unknown table/],
          ['unknown column', device.change('folders', id(), { no_such_column: 'x' }), /Unknown column/],
          ['text in an integer column', device.change('documents', id(), { size: 'big' }), /documents\.size/],
          ['an integer beyond 2^53', device.change('documents', id(), { size: 2 ** 60 }), /documents\.size/],
          ['a fraction in an integer column', device.change('documents', id(), { page_count: 1.5 }), /documents\.page_count/],
          ['2 in a boolean column', device.change('signature_requests', id(), { public_signing: 2 }), /public_signing/],
          ['a number in a text column', device.change('folders', id(), { name: 5 }), /folders\.name/],
          ['null in a NOT NULL column', device.change('folders', id(), { name: null }), /folders\.name/],
          ['JSON column that does not parse', device.change('documents', id(), { pages: '{not json' }), /JSON/],
          ['JSON nested deeper than an answer can hold', device.change('documents', id(), { pages: `${'['.repeat(5_000)}${']'.repeat(5_000)}` }), /JSON/],
          ['another entity in entity_id', device.change('folders', id(), { entity_id: crypto.randomUUID() }), /another entity/],
          ['a key column that is not the row id', device.change('folders', 'one', { id: 'two' }), /row id/],
          ['an upsert of a fact', device.change('helpdesk_messages', id(), { body: 'x' }), /written once/],
          ['a transition expecting an unguarded column', device.change('signature_requests', id(), { status: 'sent' }, 'transition', { title: 'x' }), /not a guarded column/],
          ['a transition expecting a NUL', device.change('signature_requests', id(), { status: 'sent' }, 'transition', { status: NUL }), /NUL/],
          ['a delete flag that is not 0 or 1', device.change('folders', id(), { _deleted: 'yes' }), /_deleted/],
        ];
        const goodLast = device.change('folders', id(), { name: 'Invoices' });
        const res = await device.push([goodFirst, goodDocument, ...bad.map(([, c]) => c), goodLast]);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const results = res.body.results as { id: string; status: string; reason?: string }[];
        expect(results[0].status).toBe('accepted');
        expect(results[1].status).toBe('accepted');
        expect(results.at(-1)!.status).toBe('accepted');
        bad.forEach(([what, change, reason], i) => {
          const r = results[i + 2];
          expect(r.id).toBe(change.id);
          expect({ what, status: r.status }).toEqual({ what, status: 'rejected' });
          expect(r.reason, what).toMatch(reason);
        });
        const log = await device.pullAll();
        expect(log.changes.map((c: { id: string }) => c.id)).toEqual([goodFirst.id, goodDocument.id, goodLast.id]);
        expect((await storedRows(input.entityId)).map((r) => r.rowId).sort()).toEqual([goodFirst.rowId, documentId, goodLast.rowId].sort());
      });

      it('a bad change refuses its whole group; other groups of the push stand', async () => {
        const { device } = await link(base);
        const group = crypto.randomUUID();
        const inGroup = [device.change('folders', crypto.randomUUID(), { name: 'one' }), device.change('folders', crypto.randomUUID(), { name: NUL }), device.change('folders', crypto.randomUUID(), { name: 'three' })].map((c) => ({ ...c, group }));
        const alone = device.change('folders', crypto.randomUUID(), { name: 'alone' });
        const res = await device.push([...inGroup, alone]);
        expect(res.status).toBe(200);
        expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'accepted']);
        expect(res.body.results[0].reason).toMatch(/Refused with its group: .*NUL/);
        expect((await device.pullAll()).changes.map((c: { id: string }) => c.id)).toEqual([alone.id]);
      });

      it.each([2 ** 31, 2 ** 53 - 1])('a schemaVersion of %d (past what the log column holds) is 400, nothing stored', async (schemaVersion) => {
        const { device } = await link(base);
        const res = await device.push([{ ...device.change('folders', crypto.randomUUID(), { name: 'x' }), schemaVersion }]);
        expectError(res, 400);
        expect((await device.pullAll()).changes).toEqual([]);
      });

      it('a largest allowed schemaVersion (2^31 − 1) is stored', async () => {
        const { device } = await link(base);
        const res = await device.push([{ ...device.change('folders', crypto.randomUUID(), { name: 'x' }), schemaVersion: 2 ** 31 - 1 }]);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.results[0].status).toBe('accepted');
      });
    });

    describe('a damaged mirrored row costs its own tenant a 409, and nobody else anything', () => {
      const DAY = 86_400_000;
      let seq = 1_000;
      /** Writes a row straight into the mirror, as if an unchecked push had stored it. */
      async function putRow(entityId: string, table: string, rowId: string, data: Record<string, unknown>) {
        seq += 1;
        await hosted.ctx.store.db.insert(rows).values({ entityId, tableName: table, rowId, data, stamps: `${String(Date.now()).padStart(13, '0')}-0000-testnode01`, isFact: false, seq });
      }
      /** A request sent for public signing, with one signer last notified three days ago. */
      async function sentRequest(entityId: string, patch: { document?: Record<string, unknown>; request?: Record<string, unknown>; signer?: Record<string, unknown> } = {}) {
        const token = crypto.randomBytes(32).toString('base64url');
        const [documentId, requestId, signerId] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
        const now = new Date().toISOString();
        await putRow(entityId, 'documents', documentId, { id: documentId, entity_id: entityId, name: 'contract.pdf', sha256: 'b'.repeat(64), size: 100, page_count: 1, pages: '[{"width":612,"height":792}]', created_at: now, updated_at: now, _deleted: 0, ...patch.document });
        await putRow(entityId, 'signature_requests', requestId, {
          id: requestId, entity_id: entityId, document_id: documentId, title: 'NDA', message: '', status: 'sent', signing_order: 'parallel', due_date: null, auto_remind: 1, public_signing: 1,
          signed_sha256: null, audit_head: null, created_by: null, created_by_name: 'Owner', sent_at: now, created_at: now, updated_at: now, _deleted: 0, ...patch.request,
        });
        await putRow(entityId, 'signers', signerId, {
          id: signerId, entity_id: entityId, request_id: requestId, name: 'Sam Signer', email: `sam-${signerId.slice(0, 8)}@example.com`, role: 'signer', order: 1, status: 'pending', token_hash: sha256Hex(token),
          sent_at: now, viewed_at: null, last_notified_at: new Date(Date.now() - 3 * DAY).toISOString(), reminders_sent: 0, created_at: now, _deleted: 0, ...patch.signer,
        });
        return { token, requestId, signerId };
      }
      const reminders = async (requestId: string) =>
        ((await hosted.ctx.store.db.execute(`select signer_id from hosted_mail where kind = 'signing_reminder' and request_id = '${requestId}'`)) as unknown as { rows: { signer_id: string }[] }).rows.map((r) => r.signer_id);

      it("a document whose pages are not JSON: that signer's page and PDF answer 409 {error}; another tenant's page works", async () => {
        const bad = (await link(base)).input.entityId;
        const good = (await link(base)).input.entityId;
        const broken = await sentRequest(bad, { document: { pages: '{not json' } });
        const fine = await sentRequest(good);
        expectError(await call(base, 'GET', `/api/sign/${broken.token}`), 409);
        expectError(await call(base, 'GET', `/api/sign/${broken.token}/document`), 409);
        const page = await call(base, 'GET', `/api/sign/${fine.token}`);
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expect(page.body.request.pages).toEqual([{ width: 612, height: 792 }]);
      });

      it("a tenant that copies another signer's token hash gets neither request shown through that link", async () => {
        const victim = await sentRequest((await link(base)).input.entityId);
        expect((await call(base, 'GET', `/api/sign/${victim.token}`)).status).toBe(200);
        const copier = (await link(base)).input.entityId;
        await sentRequest(copier, { signer: { token_hash: sha256Hex(victim.token) } });
        expectError(await call(base, 'GET', `/api/sign/${victim.token}`), 409);
      });

      it('the reminder scan skips a damaged request (logged once) and reminds every other tenant', async () => {
        const before = log.length;
        const good = await sentRequest((await link(base)).input.entityId);
        // A flag that does not cast to an integer (it stopped the scan's query for everyone) and a signer whose order is not a number.
        await sentRequest((await link(base)).input.entityId, { request: { auto_remind: 'yes' } });
        await sentRequest((await link(base)).input.entityId, { request: { public_signing: true, _deleted: 'no' } });
        const damaged = await sentRequest((await link(base)).input.entityId, { signer: { order: 'first' } });
        await hosted.ctx.mail!.remindDue();
        expect(await reminders(good.requestId)).toEqual([good.signerId]);
        expect(await reminders(damaged.requestId)).toEqual([]);
        await hosted.ctx.mail!.remindDue();
        const skipped = log.slice(before).split('\n').filter((l) => l.includes('unreadable mirrored row'));
        expect(skipped).toHaveLength(1);
        expect(skipped[0]).toContain(damaged.requestId);
      });
    });

    describe('bounded logs', () => {
      it('every response carries an x-request-id', async () => {
        const a = await call(base, 'GET', '/api/health');
        const b = await call(base, 'GET', '/nope');
        expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
      });

      it('pushes of bad changes in a loop log nothing; a store failure logs one bounded line per minute without values', async () => {
        const { device } = await link(base);
        const marker = `MARKER${crypto.randomBytes(6).toString('hex')}`;
        let before = log.length;
        for (let i = 0; i < 30; i++) {
          const res = await device.push([device.change('folders', `f${i}`, { name: `${marker}${NUL}${'v'.repeat(20_000)}` }), device.change('folders', `g${i}${LONE}`, { name: marker })]);
          expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
        }
        expect(log.length - before).toBeLessThan(2_000);
        expect(log.slice(before)).not.toContain(marker);

        // A failing store: every insert into the log is refused (the failing query carries every value pushed).
        await hosted.ctx.store.db.execute('alter table changes add constraint hardening_test_refuse check (false) not valid');
        before = log.length;
        const ids: string[] = [];
        try {
          for (let i = 0; i < 30; i++) {
            const res = await device.push([device.change('folders', `h${i}`, { name: `${marker}${'w'.repeat(20_000)}` })]);
            expectError(res, 500);
            ids.push(res.headers.get('x-request-id')!);
          }
        } finally {
          await hosted.ctx.store.db.execute('alter table changes drop constraint hardening_test_refuse');
        }
        const written = log.slice(before);
        expect(written.length).toBeLessThan(2_000);
        expect(written).not.toContain(marker);
        expect(written).not.toContain('wwwwwwww');
        const lines = written.trim().split('\n').map((l) => JSON.parse(l));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ requestId: ids[0], method: 'POST', route: '/sync/v1/push', error: { class: expect.any(String), message: expect.any(String) } });
        expect(lines[0].error.message.length).toBeLessThanOrEqual(201);
        expect(JSON.stringify(lines[0])).not.toMatch(/stack|params/);
        // The store works again: the same push goes through.
        expect((await device.push([device.change('folders', 'after', { name: 'after' })])).body.results[0].status).toBe('accepted');
      });
    });
  });
}
