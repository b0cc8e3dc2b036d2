// The mail queue mechanism (mail/queue.ts) against an in-memory store: the desktop's mail_outbox
// and the hosted instance's queues run the same pass (their integration tests: test/integration/mail*,
// test/hosted/mail-*, test/sync/mail-through-hosted).
import { describe, expect, it } from 'vitest';
import { failureOf, mailBackoffMs, purposeKeyOf, sendDueFrom, type Delivery, type MailFailure, type MailQueueStore, type RetryPolicy } from '../../server/mail/queue.js';

interface Row {
  id: string;
  attempts: number;
  status: 'queued' | 'sent' | 'failed' | 'dropped';
  nextAttemptAt: string;
  note?: string;
}

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const clock = { now: () => new Date(T0) };
const policy: RetryPolicy = { maxAttempts: 3, batch: 10, backoffMs: (a) => mailBackoffMs(a, { baseMs: 60_000, capMs: 3_600_000 }), permanent: (err) => (err as { status?: number }).status === 400 };

function memoryQueue(rows: Row[], taken = new Set<string>()): MailQueueStore<Row, string> {
  return {
    due: async (limit) => rows.filter((r) => r.status === 'queued' && Date.parse(r.nextAttemptAt) <= T0).slice(0, limit),
    claim: async (m) => !taken.has(m.id),
    sent: async (m, note) => void Object.assign(m, { status: 'sent', attempts: m.attempts + 1, note }),
    dropped: async (m, reason) => void Object.assign(m, { status: 'dropped', note: reason }),
    failed: async (m, f: MailFailure) => void Object.assign(m, { status: f.giveUp ? 'failed' : 'queued', attempts: f.attempts, nextAttemptAt: f.nextAttemptAt, note: f.lastError }),
    waiting: async (m, retryAt) => void Object.assign(m, { nextAttemptAt: retryAt }),
  };
}

const row = (id: string, over: Partial<Row> = {}): Row => ({ id, attempts: 0, status: 'queued', nextAttemptAt: new Date(T0).toISOString(), ...over });

describe('mail queue', () => {
  it('sends, drops and lets wait what is due; a mail another process claimed is left alone', async () => {
    const rows = [row('send'), row('drop'), row('wait'), row('taken'), row('later', { nextAttemptAt: new Date(T0 + 1000).toISOString() })];
    const deliver = async (m: Row): Promise<Delivery<string>> =>
      m.id === 'drop' ? { status: 'dropped', reason: 'moved on' } : m.id === 'wait' ? { status: 'waiting', retryAt: new Date(T0 + 2000).toISOString() } : { status: 'sent', sent: `<${m.id}>` };
    const counts = await sendDueFrom(memoryQueue(rows, new Set(['taken'])), deliver, policy, clock);
    expect(counts).toEqual({ sent: 1, failed: 0, dropped: 1 });
    expect(rows.map((r) => [r.id, r.status, r.note ?? null])).toEqual([
      ['send', 'sent', '<send>'],
      ['drop', 'dropped', 'moved on'],
      ['wait', 'queued', null],
      ['taken', 'queued', null],
      ['later', 'queued', null],
    ]);
    expect(rows[2].nextAttemptAt).toBe(new Date(T0 + 2000).toISOString());
  });

  it('retries a failed send with backoff, then gives up at the limit and records why', async () => {
    const m = row('m');
    const rows = [m];
    const deliver = async (): Promise<Delivery<string>> => {
      throw new Error('connection refused');
    };
    await sendDueFrom(memoryQueue(rows), deliver, policy, clock);
    expect(m).toMatchObject({ status: 'queued', attempts: 1, note: 'connection refused', nextAttemptAt: new Date(T0 + 60_000).toISOString() });
    m.nextAttemptAt = new Date(T0).toISOString();
    await sendDueFrom(memoryQueue(rows), deliver, policy, clock);
    expect(m).toMatchObject({ status: 'queued', attempts: 2, nextAttemptAt: new Date(T0 + 120_000).toISOString() });
    m.nextAttemptAt = new Date(T0).toISOString();
    expect(await sendDueFrom(memoryQueue(rows), deliver, policy, clock)).toEqual({ sent: 0, failed: 1, dropped: 0 });
    expect(m).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('fails at once on a permanent refusal, and waits at least as long as Retry-After asks', () => {
    const bad = Object.assign(new Error('bad input'), { status: 400 });
    expect(failureOf(row('a'), bad, policy, T0).giveUp).toBe(true);
    const busy = Object.assign(new Error('slow down'), { retryAfterSeconds: 600 });
    const f = failureOf(row('a'), busy, { ...policy, retryAfterMs: (err) => ((err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0) * 1000 }, T0);
    expect(f).toMatchObject({ giveUp: false, attempts: 1, nextAttemptAt: new Date(T0 + 600_000).toISOString() });
  });

  it('caps the backoff and keeps jitter within ±20 %', () => {
    expect(mailBackoffMs(20, { baseMs: 30_000, capMs: 3_600_000 })).toBe(3_600_000);
    for (let i = 0; i < 50; i++) {
      const ms = mailBackoffMs(2, { baseMs: 30_000, capMs: 3_600_000, jitter: true });
      expect(ms).toBeGreaterThanOrEqual(48_000);
      expect(ms).toBeLessThanOrEqual(72_000);
    }
  });

  it('names one purpose the same way wherever it is queued', () => {
    expect(purposeKeyOf('signing_reminder', 'r1', 's1', 2)).toBe('signing_reminder:r1:s1:2');
    expect(purposeKeyOf('signed_copy', 'r1', 's1', undefined)).toBe('signed_copy:r1:s1');
  });
});
