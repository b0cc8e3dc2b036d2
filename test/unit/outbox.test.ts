import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { openDatabase } from '../../server/db/open.js';
import { createEventBus, type DomainEvent } from '../../server/events/bus.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-outbox-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function open(file: string) {
  const { db, sqlite } = openDatabase(path.join(tmp, file));
  return { db, sqlite, bus: createEventBus<Record<string, object>>({ db, now: () => new Date().toISOString(), nextId: uuidv7 }) };
}

describe('transactional outbox', () => {
  it('hands each event to each consumer in order, once per successful drain', () => {
    const { db, sqlite, bus } = open('order.db');
    const seen: string[] = [];
    bus.registerConsumer('c', (events) => events.forEach((e) => seen.push(e.type)));
    db.transaction((tx) => {
      bus.record(tx, { entityId: 'e', type: 'a', data: {} });
      bus.record(tx, { entityId: 'e', type: 'b', data: {} });
    });
    expect(bus.drain()).toBe(2);
    expect(bus.drain()).toBe(0);
    expect(seen).toEqual(['a', 'b']);
    sqlite.close();
  });

  it('does not record the event when the change rolls back', () => {
    const { db, sqlite, bus } = open('rollback.db');
    const seen: DomainEvent[] = [];
    bus.registerConsumer('c', (events) => seen.push(...events));
    expect(() =>
      db.transaction((tx) => {
        bus.record(tx, { entityId: 'e', type: 'a', data: {} });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    bus.drain();
    expect(seen).toEqual([]);
    sqlite.close();
  });

  it('redelivers a batch whose consumer failed (the cursor advances only with the consumer)', () => {
    const { db, sqlite, bus } = open('retry.db');
    let fail = true;
    const seen: string[] = [];
    bus.registerConsumer('c', (events) => {
      if (fail) throw new Error('down');
      events.forEach((e) => seen.push(e.type));
    });
    db.transaction((tx) => bus.record(tx, { entityId: 'e', type: 'a', data: {} }));
    expect(() => bus.drain()).toThrow('down');
    fail = false;
    bus.drain();
    expect(seen).toEqual(['a']);
    sqlite.close();
  });

  it('keeps events recorded before the first drain across a restart, even on a new database', () => {
    const first = open('restart.db');
    first.bus.registerConsumer('c', () => {});
    first.db.transaction((tx) => first.bus.record(tx, { entityId: 'e', type: 'before-crash', data: {} }));
    first.sqlite.close(); // crash before any drain

    const second = open('restart.db');
    const seen: string[] = [];
    second.bus.registerConsumer('c', (events) => events.forEach((e) => seen.push(e.type)));
    second.bus.drain();
    expect(seen).toEqual(['before-crash']);
    second.sqlite.close();
  });
});
