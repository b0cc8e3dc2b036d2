import type { LinkedStatus, SyncState } from './types';

type Tone = 'green' | 'blue' | 'amber' | 'red';

/** "2 minutes ago": coarse on purpose, re-rendered by the status poll. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  if (s < 45) return 'just now';
  if (s < 90) return 'a minute ago';
  if (s < 3600) return `${Math.round(s / 60)} minutes ago`;
  if (s < 5400) return 'an hour ago';
  if (s < 86400) return `${Math.round(s / 3600)} hours ago`;
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);
const count = (n: number) => n.toLocaleString();

/** "Syncing 1,200 of 3,000" while a cycle has counted its work, else null. */
export function progressWords(s: LinkedStatus): { short: string; long: string; percent: number } | null {
  const p = s.progress;
  if (s.state !== 'syncing' || !p || p.total <= 0) return null;
  const what = p.phase === 'push' ? 'changes sent' : p.phase === 'snapshot' ? 'records received' : 'changes received';
  return { short: `${count(p.done)} of ${count(p.total)}`, long: `Syncing ${count(p.done)} of ${count(p.total)} ${what}`, percent: Math.round((100 * p.done) / p.total) };
}

/** A warning when this computer's clock is off the hosted instance's by more than a minute. */
export function clockWords(s: LinkedStatus): string | null {
  if (!s.clockWarning || s.clockOffsetMs === null) return null;
  const minutes = Math.max(1, Math.round(Math.abs(s.clockOffsetMs) / 60_000));
  const amount = minutes >= 90 ? `${Math.round(minutes / 60)} hours` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `This computer's clock is ${amount} ${s.clockOffsetMs > 0 ? 'behind' : 'ahead of'} the hosted instance. Sync works, but set the date and time right.`;
}

/** "Bureau tries again at 14:05." while sync fails and the next attempt is known. */
function retryWords(s: LinkedStatus): string {
  if (!s.nextAttemptAt) return '';
  return ` Bureau tries again at ${new Date(s.nextAttemptAt).toLocaleTimeString(undefined, { timeStyle: 'short' })}.`;
}

const SHORT: Record<SyncState, string> = {
  synced: 'Synced',
  pending: 'Waiting',
  syncing: 'Syncing…',
  offline: 'Offline',
  revoked: 'Revoked',
  update_required: 'Update required',
  clock_skew: 'Clock ahead',
  error: 'Sync error',
};

/** The state in words: a headline, a short label (top bar), a tone and what to do about it. */
export function describeSync(s: LinkedStatus, now = Date.now()): { headline: string; short: string; tone: Tone; detail: string | null } {
  const base = { short: SHORT[s.state] };
  switch (s.state) {
    case 'synced':
      return { ...base, tone: 'green', headline: s.lastSyncAt ? `Synced ${ago(s.lastSyncAt, now)}` : 'Synced', detail: null };
    case 'pending':
      return { ...base, tone: 'blue', headline: `${changes(s.waiting)} waiting to sync`, detail: 'They go up with the next sync, within a few seconds.' };
    case 'syncing': {
      const progress = progressWords(s);
      return { ...base, short: progress ? `Syncing ${progress.short}` : base.short, tone: 'blue', headline: progress ? `${progress.long}…` : 'Syncing…', detail: null };
    }
    case 'offline':
      return {
        ...base,
        tone: 'amber',
        headline: s.waiting > 0 ? `Offline — ${changes(s.waiting)} waiting` : 'Offline',
        detail: `The hosted instance cannot be reached. Keep working: changes are kept and sent when it is back.${retryWords(s)}`,
      };
    case 'revoked':
      return { ...base, tone: 'red', headline: 'This device was revoked', detail: 'An owner or admin removed it from the hosted instance. Its changes are no longer sent or received.' };
    case 'update_required':
      return {
        ...base,
        tone: 'red',
        headline: 'Update required',
        detail: "The hosted instance needs a newer Bureau. Until this app is updated, this entity's data is read-only here (you can still look everything up); nothing is lost meanwhile.",
      };
    case 'clock_skew':
      return { ...base, tone: 'red', headline: 'Your clock is more than 10 minutes ahead', detail: 'Set the date and time of this computer right; changes wait until then.' };
    case 'error':
      return { ...base, tone: 'red', headline: 'Sync failed', detail: s.nextAttemptAt && s.lastError ? `${s.lastError.replace(/([^.!?])$/, '$1.')}${retryWords(s)}` : s.lastError };
  }
}
