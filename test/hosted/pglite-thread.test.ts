// The hosted instance's PGlite runs in a thread of its own (server/hosted/pglite-thread.ts): its
// synchronous storage I/O no longer holds the API's event loop. Through the store the hosted code
// uses: statements, transactions (commit, rollback, savepoints, isolation from statements outside),
// PostgreSQL's errors with their fields, value types as before, data kept across a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openHostedStore, type HostedStore } from '../../server/hosted/store.js';
import { isFatalStoreError } from '../../server/hosted/context.js';
import { accounts, entities } from '../../server/hosted/schema.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-pglite-thread-'));
let store: HostedStore;

beforeAll(async () => {
  store = await openHostedStore({ dataDir });
}, 60_000);

afterAll(async () => {
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const account = (email: string) => ({ id: randomUUID(), email, name: 'Ada', passwordHash: 'x', createdAt: new Date().toISOString() });
const emails = async () => (await store.db.select({ email: accounts.email }).from(accounts).orderBy(accounts.email)).map((r) => r.email);

describe("the hosted instance's PGlite in a thread of its own", () => {
  it('a long statement leaves the event loop free', async () => {
    let turns = 0;
    let running = true;
    const spin = () => {
      turns += 1;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    // Seconds of PostgreSQL work; in the API's thread not one turn of the loop ran meanwhile.
    const result = await store.db.execute<{ n: number }>(sql`select count(*)::int as n from generate_series(1, 3000000) g where g % 7 = 0`);
    const [row] = (result as unknown as { rows: { n: number }[] }).rows;
    running = false;
    expect(row.n).toBe(428_571);
    expect(turns).toBeGreaterThan(20);
  });

  it('commits a transaction, rolls one back on a throw, and a savepoint alone', async () => {
    await store.db.transaction(async (tx) => {
      await tx.insert(accounts).values(account('a@example.com'));
      await tx.insert(accounts).values(account('b@example.com'));
    });
    await expect(
      store.db.transaction(async (tx) => {
        await tx.insert(accounts).values(account('c@example.com'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await store.db.transaction(async (tx) => {
      await tx.insert(accounts).values(account('d@example.com'));
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(accounts).values(account('e@example.com'));
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
    });
    expect(await emails()).toEqual(['a@example.com', 'b@example.com', 'd@example.com']);
  });

  it('a statement outside an open transaction waits for it and sees only what it committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = store.db.transaction(async (t) => {
      await t.insert(accounts).values(account('f@example.com'));
      inserted();
      await held;
      throw new Error('rolled back');
    });
    await didInsert;
    const outside = emails();
    release();
    await expect(tx).rejects.toThrow('rolled back');
    expect(await outside).not.toContain('f@example.com');
  });

  it("PostgreSQL's errors arrive with their code and constraint, and the store goes on", async () => {
    const err = await store.db
      .insert(accounts)
      .values(account('a@example.com'))
      .then(() => null, (e: unknown) => e as { cause?: unknown });
    // Drizzle wraps the driver's error; what the hosted code reads is the cause.
    expect(err?.cause).toMatchObject({ code: '23505', constraint: 'accounts_email_unique' });
    expect(isFatalStoreError(err?.cause)).toBe(false);
    const syntax = await store.db.execute(sql.raw('selec 1')).then(() => null, (e: unknown) => e as { cause?: unknown });
    expect(syntax?.cause).toMatchObject({ code: '42601', severity: 'ERROR' });
    expect(await emails()).toHaveLength(3);
  });

  it('values keep their types (timestamps as text, bigint columns as numbers) and survive a restart', async () => {
    const id = randomUUID();
    await store.db.insert(entities).values({ id, name: 'Acme', lastSeq: 2 ** 40, createdAt: '2026-11-27T10:00:00.123Z' });
    const read = async () => (await store.db.select().from(entities).where(eq(entities.id, id)))[0];
    const before = await read();
    expect(before).toMatchObject({ name: 'Acme', lastSeq: 2 ** 40, compactedThrough: 0 });
    expect(typeof before.createdAt).toBe('string');
    expect(new Date(before.createdAt).toISOString()).toBe('2026-11-27T10:00:00.123Z');
    await store.close();
    store = await openHostedStore({ dataDir });
    expect(await read()).toEqual(before);
    expect(await emails()).toEqual(['a@example.com', 'b@example.com', 'd@example.com']);
  }, 60_000);
});
