// What the sync status says while sync fails: why, and when this device tries again by itself.
import { describe, expect, it } from 'vitest';
import { describeSync } from '../../renderer/src/pages/sync/words';
import type { LinkedStatus } from '../../renderer/src/pages/sync/types';

const base: LinkedStatus = {
  linked: true,
  state: 'synced',
  hostedUrl: 'https://bureau.example.com',
  deviceId: '0190f3a0-0000-7000-8000-000000000001',
  role: 'owner',
  linkedAt: '2026-11-26T10:00:00.000Z',
  lastSyncAt: null,
  lastError: null,
  waiting: 0,
  progress: null,
  readOnly: false,
  clockOffsetMs: null,
  clockWarning: false,
  nextAttemptAt: null,
  rejected: [],
};

describe('sync status words', () => {
  it('say when a failing sync tries again', () => {
    const at = '2026-11-26T14:05:00.000Z';
    const time = new Date(at).toLocaleTimeString(undefined, { timeStyle: 'short' });
    const failed = describeSync({ ...base, state: 'error', lastError: 'Too many snapshots from this device; try again later', nextAttemptAt: at });
    expect(failed.detail).toBe(`Too many snapshots from this device; try again later. Bureau tries again at ${time}.`);
    expect(describeSync({ ...base, state: 'offline', nextAttemptAt: at }).detail).toContain(`Bureau tries again at ${time}.`);
    expect(describeSync({ ...base, state: 'error', lastError: 'Boom' }).detail).toBe('Boom');
  });
});
