// One ticket-number series per business, assigned by the hosted instance: devices push tickets
// with provisional numbers, the hosted instance writes the final ones as its own changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { HOSTED_DEVICE_ID } from '../../server/sync/protocol.js';
import { call, Device, link, linkInput } from './client.js';

export function ticketNumbersSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`ticket numbers on ${name}`, () => {
    let hosted: RunningHosted;
    let base: string;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-numbers-'));

    beforeAll(async () => {
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'silent' });
      base = hosted.url;
    }, 120_000);
    afterAll(async () => {
      await hosted?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    async function twoDevices(entityName: string) {
      const input = linkInput({ entityName });
      const { device } = await link(base, input);
      const code = await call(base, 'POST', '/sync/v1/devices/codes', { token: device.token });
      const joined = await call(base, 'POST', '/sync/v1/join', { body: { code: code.body.code, email: input.email, password: input.password, deviceName: 'Laptop' } });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      return { a: device, b: new Device(base, joined.body), entityId: input.entityId };
    }

    const ticket = (d: Device, entityId: string, number: string, provisional: string | null, id = uuidv4()) =>
      d.change('helpdesk_tickets', id, {
        id,
        entity_id: entityId,
        ticket_number: number,
        provisional_number: provisional,
        subject: `Ticket ${number}`,
        description: null,
        status: 'new',
        priority: 'normal',
        channel: 'web',
        contact_email: null,
        contact_name: null,
        category_id: null,
        created_by: null,
        assigned_to: null,
        search_text: 'ticket',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        first_response_at: null,
        resolved_at: null,
        closed_at: null,
      });

    /** The final numbers the hosted instance wrote, by ticket id (the last one wins, as on a device). */
    async function finalNumbers(d: Device): Promise<Map<string, string>> {
      const { changes } = await d.pullAll();
      const out = new Map<string, string>();
      for (const c of changes) if (c.deviceId === HOSTED_DEVICE_ID && c.table === 'helpdesk_tickets') out.set(c.rowId, c.columns.ticket_number);
      return out;
    }

    it('numbers provisional tickets from two devices in one series, prefix from the name, each once', async () => {
      const { a, b, entityId } = await twoDevices('Acme Ltd');
      const fromA = [ticket(a, entityId, 'ACME-AAAAA-1', 'ACME-AAAAA-1'), ticket(a, entityId, 'ACME-AAAAA-2', 'ACME-AAAAA-2')];
      const fromB = [ticket(b, entityId, 'ACME-BBBBB-1', 'ACME-BBBBB-1')];
      // At the same moment: the entity's lock orders them, the counter never hands out a number twice.
      const [pa, pb] = await Promise.all([a.push(fromA), b.push(fromB)]);
      expect(pa.status, JSON.stringify(pa.body)).toBe(200);
      expect(pb.status, JSON.stringify(pb.body)).toBe(200);
      const numbers = await finalNumbers(a);
      expect([...numbers.keys()].sort()).toEqual([...fromA, ...fromB].map((c) => c.rowId).sort());
      expect([...numbers.values()].sort()).toEqual(['ACME-1001', 'ACME-1002', 'ACME-1003']);
      expect(await finalNumbers(b)).toEqual(numbers);

      // A later edit of the ticket, or the same insert pushed again, numbers nothing again.
      const id = fromA[0].rowId;
      expect((await a.push([a.change('helpdesk_tickets', id, { subject: 'Edited' }), fromA[0]])).status).toBe(200);
      const again = await a.push([ticket(a, entityId, 'ACME-AAAAA-3', 'ACME-AAAAA-3')]);
      expect(again.body.results[0].status).toBe('accepted');
      const after = await finalNumbers(a);
      expect(after.get(id)).toBe(numbers.get(id));
      expect([...after.values()].filter((n) => n === 'ACME-1004')).toHaveLength(1);
      expect(after.size).toBe(4);
    });

    it('continues after the final numbers an unlinked series brought, and follows a prefix an owner chose', async () => {
      const { a, entityId } = await twoDevices('Dana’s Design Studio');
      // Tickets numbered while the entity was not linked arrive with their final numbers.
      await a.push([ticket(a, entityId, 'DDS-1001', null), ticket(a, entityId, 'DDS-1007', null)]);
      await a.push([ticket(a, entityId, 'DDS-AAAAA-1', 'DDS-AAAAA-1')]);
      expect([...(await finalNumbers(a)).values()]).toEqual(['DDS-1008']);
      await a.push([a.change('helpdesk_settings', entityId, { entity_id: entityId, ticket_prefix: 'DANA', updated_at: '2026-01-01T00:00:00.000Z' })]);
      await a.push([ticket(a, entityId, 'DDS-AAAAA-2', 'DDS-AAAAA-2')]);
      expect([...(await finalNumbers(a)).values()]).toEqual(['DDS-1008', 'DANA-1009']);
    });

    it('keeps each business’s series apart', async () => {
      const one = await twoDevices('Acme Ltd');
      await one.a.push([ticket(one.a, one.entityId, 'ACME-AAAAA-1', 'ACME-AAAAA-1')]);
      expect([...(await finalNumbers(one.a)).values()]).toEqual(['ACME-1001']);
    });
  });
}
