import { describe, expect, it } from 'vitest';
import { tablePolicies } from '../../server/modules.js';
import { schemaTables, syncedTables } from '../../server/kernel/sync-policy.js';
import { diffColumns } from '../../server/sync/capture.js';

describe('sync policies', () => {
  it('every table of the schema has exactly one policy, and every policy names a table', () => {
    const policies = tablePolicies();
    expect(Object.keys(policies).sort()).toEqual([...schemaTables().keys()].sort());
  });

  it('synced tables carry an entity id and a primary key; keys and sealed tokens never sync', () => {
    const synced = syncedTables(tablePolicies()).map((t) => t.name);
    expect(synced).toEqual(expect.arrayContaining(['helpdesk_tickets', 'helpdesk_messages', 'folders', 'documents']));
    for (const name of ['wallet_keys', 'wallet_notes', 'signing_certificates', 'sessions', 'api_keys', 'users', 'sync_links']) expect(synced).not.toContain(name);
  });
});

describe('update capture', () => {
  it('records only the columns that changed, or nothing', () => {
    expect(diffColumns('{"a":1,"b":"x","c":null}', '{"a":1,"b":"y","c":null}')).toBe('{"b":"y"}');
    expect(diffColumns('{"a":1}', '{"a":1}')).toBeNull();
    expect(diffColumns('{"a":null}', '{"a":0}')).toBe('{"a":0}');
  });
});
