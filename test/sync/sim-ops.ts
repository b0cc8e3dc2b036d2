// The simulation's operations and their fast-check generators. An operation names its device
// by index and its target row by index into the rows that device has (by creation order), so
// a shrunk sequence still means something when earlier operations are removed.
import fc from 'fast-check';
import type { FaultKind, FaultTarget } from './fault-proxy.js';

export const DEVICES = 3;
/** Clock skew stays within the 10-minute limit the hosted instance and devices enforce. */
export const MAX_SKEW_S = 9 * 60;

export const SUBJECTS = ['Printer', 'VPN down', 'Invoice', 'printer'] as const;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const NAMES = ['Contracts', 'HR', 'Archive', 'contracts'] as const;
export const CATEGORIES = ['Billing', 'Technical', 'Sales'] as const;
/** Idempotency keys: the same key used on two devices must make one event. */
export const EVENT_KEYS = ['inv-1', 'inv-2', 'inv-3'] as const;
/** Account codes: the same code added on two devices must make one account. */
export const ACCOUNT_CODES = ['6950', '6960', '6970'] as const;
export const ACCOUNT_NAMES = ['Training', 'Books', 'Events'] as const;

export type Op = { dt: number } & (
  | { k: 'ticket'; d: number; subject: number; priority: (typeof PRIORITIES)[number] }
  | { k: 'editTicket'; d: number; t: number; field: 'subject'; value: number }
  | { k: 'editTicket'; d: number; t: number; field: 'priority'; value: (typeof PRIORITIES)[number] }
  | { k: 'editTicket'; d: number; t: number; field: 'status'; value: (typeof STATUSES)[number] }
  | { k: 'editTicket'; d: number; t: number; field: 'assignedTo'; value: 'owner' | null }
  | { k: 'message'; d: number; t: number; internal: boolean; customer: boolean }
  | { k: 'folder'; d: number; name: number; parent: number | null }
  | { k: 'renameFolder'; d: number; f: number; name: number }
  | { k: 'deleteFolder'; d: number; f: number }
  | { k: 'upload'; d: number; pdf: number; folder: number | null }
  | { k: 'editDoc'; d: number; doc: number; name: number | null; folder: number | null }
  | { k: 'deleteDoc'; d: number; doc: number }
  | { k: 'category'; d: number; name: number }
  | { k: 'renameCategory'; d: number; c: number; name: number }
  | { k: 'deleteCategory'; d: number; c: number }
  | { k: 'grant'; d: number; f: number; role: (typeof GRANT_ROLES)[number]; level: 'view' | 'edit' }
  | { k: 'revokeGrant'; d: number; g: number }
  /** An invoice: small ones post, large ones are held for approval (threshold set before the link). */
  | { k: 'ledgerEvent'; d: number; large: boolean; key: number | null }
  /** A decision on an event: two devices deciding the same event race as guarded transitions. */
  | { k: 'decide'; d: number; e: number; action: 'approve' | 'reject' | 'reverse' }
  | { k: 'account'; d: number; code: number }
  /** A signature request made and sent (one signer with a signature field). */
  | { k: 'request'; d: number }
  /** An action on a request: two devices acting on one request race through its audit chain. */
  | { k: 'requestAction'; d: number; r: number; action: 'remind' | 'cancel' | 'sign' }
  | { k: 'renameAccount'; d: number; a: number; name: number }
  /** A notification for the owner or for everyone; reading one, or all, on a device (read on all of hers). */
  | { k: 'notify'; d: number; everyone: boolean }
  | { k: 'readNotification'; d: number; n: number }
  | { k: 'readAll'; d: number }
  /** The owner's e-mail choice for a kind, made on any device. */
  | { k: 'emailPref'; d: number; email: boolean }
  /** The team: an invitation, a role change or a removal, made on a device through the hosted instance. */
  | { k: 'invite'; d: number; m: number; role: (typeof MEMBER_ROLES)[number] }
  | { k: 'changeRole'; d: number; m: number; role: (typeof MEMBER_ROLES)[number] }
  | { k: 'removeMember'; d: number; m: number }
  /** The invited person accepts on an install of her own (not simulated): she becomes active. `d` is unused. */
  | { k: 'accept'; d: number; m: number }
  /** A webhook subscription to ticket.created, delivered by the hosted instance or by the device that makes it. */
  | { k: 'subscribe'; d: number; hosted: boolean }
  /** The device's outbox consumers and webhook delivery loop run once (background loops are off in the simulation). */
  | { k: 'deliver'; d: number }
  | { k: 'sync'; d: number }
  /** A cycle on the device while it also takes a write (pull applies around a local write). */
  | { k: 'syncWhileWriting'; d: number; write: Op }
  /** The device's server stops and starts again on its data (HLC and queue from disk). */
  | { k: 'restart'; d: number }
  /** Cycles of several devices at once: their pushes and pulls interleave at the hosted instance. */
  | { k: 'syncMany'; ds: number[]; delays: number[] }
  | { k: 'fault'; d: number; fault: FaultKind; target: FaultTarget }
  | { k: 'partition'; d: number; on: boolean }
  /** Held and copied requests of the device's proxy reach the hosted instance now. */
  | { k: 'release'; d: number }
  | { k: 'skew'; d: number; seconds: number }
);

/** The people the simulation invites (per run) and the roles they are given. */
export const MEMBERS = 3;
export const MEMBER_ROLES = ['member', 'admin', 'viewer'] as const;

/** Roles folders are shared with (the same grant from two devices is one row). */
export const GRANT_ROLES = ['member', 'viewer', 'admin'] as const;

const d = fc.integer({ min: 0, max: DEVICES - 1 });
const idx = fc.nat({ max: 7 });
/** Mostly no time passes or a little (ties and near-ties of stamps), sometimes more. */
const dt = fc.constantFrom(0, 0, 1, 3, 250, 1_500, 40_000);

const create: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('ticket' as const), d, subject: fc.nat({ max: SUBJECTS.length - 1 }), priority: fc.constantFrom(...PRIORITIES) }),
  fc.record({ dt, k: fc.constant('folder' as const), d, name: fc.nat({ max: NAMES.length - 1 }), parent: fc.option(idx, { nil: null }) }),
  fc.record({ dt, k: fc.constant('upload' as const), d, pdf: fc.nat({ max: 2 }), folder: fc.option(idx, { nil: null }) }),
  fc.record({ dt, k: fc.constant('message' as const), d, t: idx, internal: fc.boolean(), customer: fc.boolean() }),
  fc.record({ dt, k: fc.constant('notify' as const), d, everyone: fc.boolean() }),
];

const edit: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('editTicket' as const), d, t: idx, field: fc.constant('subject' as const), value: fc.nat({ max: SUBJECTS.length - 1 }) }),
  fc.record({ dt, k: fc.constant('editTicket' as const), d, t: idx, field: fc.constant('priority' as const), value: fc.constantFrom(...PRIORITIES) }),
  fc.record({ dt, k: fc.constant('editTicket' as const), d, t: idx, field: fc.constant('status' as const), value: fc.constantFrom(...STATUSES) }),
  fc.record({ dt, k: fc.constant('editTicket' as const), d, t: idx, field: fc.constant('assignedTo' as const), value: fc.constantFrom('owner' as const, null) }),
  fc.record({ dt, k: fc.constant('renameFolder' as const), d, f: idx, name: fc.nat({ max: NAMES.length - 1 }) }),
  fc.record({ dt, k: fc.constant('deleteFolder' as const), d, f: idx }),
  fc.record({ dt, k: fc.constant('editDoc' as const), d, doc: idx, name: fc.option(fc.nat({ max: NAMES.length - 1 }), { nil: null }), folder: fc.option(idx, { nil: null }) }),
  fc.record({ dt, k: fc.constant('deleteDoc' as const), d, doc: idx }),
];

const people: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('notify' as const), d, everyone: fc.boolean() }),
  fc.record({ dt, k: fc.constant('readNotification' as const), d, n: idx }),
  fc.record({ dt, k: fc.constant('readAll' as const), d }),
  fc.record({ dt, k: fc.constant('emailPref' as const), d, email: fc.boolean() }),
];

const member = fc.nat({ max: MEMBERS - 1 });
const memberRole = fc.constantFrom(...MEMBER_ROLES);
const team: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('invite' as const), d, m: member, role: memberRole }),
  fc.record({ dt, k: fc.constant('invite' as const), d, m: member, role: memberRole }),
  fc.record({ dt, k: fc.constant('changeRole' as const), d, m: member, role: memberRole }),
  fc.record({ dt, k: fc.constant('removeMember' as const), d, m: member }),
  fc.record({ dt, k: fc.constant('accept' as const), d, m: member }),
  fc.record({ dt, k: fc.constant('accept' as const), d, m: member }),
  fc.record({ dt, k: fc.constant('subscribe' as const), d, hosted: fc.boolean() }),
  fc.record({ dt, k: fc.constant('subscribe' as const), d, hosted: fc.boolean() }),
  fc.record({ dt, k: fc.constant('deliver' as const), d }),
  fc.record({ dt, k: fc.constant('deliver' as const), d }),
];

const role = fc.constantFrom(...GRANT_ROLES);
const keyed: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('category' as const), d, name: fc.nat({ max: CATEGORIES.length - 1 }) }),
  fc.record({ dt, k: fc.constant('renameCategory' as const), d, c: idx, name: fc.nat({ max: CATEGORIES.length - 1 }) }),
  fc.record({ dt, k: fc.constant('deleteCategory' as const), d, c: idx }),
  fc.record({ dt, k: fc.constant('grant' as const), d, f: idx, role, level: fc.constantFrom('view' as const, 'edit' as const) }),
  fc.record({ dt, k: fc.constant('revokeGrant' as const), d, g: idx }),
];

const ledger: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('ledgerEvent' as const), d, large: fc.boolean(), key: fc.option(fc.nat({ max: EVENT_KEYS.length - 1 }), { nil: null }) }),
  // Mostly reversals (most events post at once): two devices deciding one event is the race to test.
  fc.record({ dt, k: fc.constant('decide' as const), d, e: fc.nat({ max: 2 }), action: fc.constantFrom('approve' as const, 'reject' as const, 'reverse' as const, 'reverse' as const) }),
  fc.record({ dt, k: fc.constant('account' as const), d, code: fc.nat({ max: ACCOUNT_CODES.length - 1 }) }),
  fc.record({ dt, k: fc.constant('request' as const), d }),
  fc.record({ dt, k: fc.constant('requestAction' as const), d, r: idx, action: fc.constantFrom('remind' as const, 'cancel' as const, 'sign' as const) }),
  fc.record({ dt, k: fc.constant('renameAccount' as const), d, a: fc.nat({ max: ACCOUNT_CODES.length - 1 }), name: fc.nat({ max: ACCOUNT_NAMES.length - 1 }) }),
];

const faults: fc.Arbitrary<Op>[] = [
  fc.record({
    dt,
    k: fc.constant('fault' as const),
    d,
    fault: fc.constantFrom<FaultKind>('dropRequest', 'dropResponse', 'dropResponse', 'duplicate', 'duplicateAfter', 'delay', 'hold', 'replayLater'),
    target: fc.constantFrom<FaultTarget>('push', 'push', 'push', 'pull', 'blob', 'any'),
  }),
  fc.record({ dt, k: fc.constant('partition' as const), d, on: fc.boolean() }),
  fc.record({ dt, k: fc.constant('release' as const), d }),
  fc.record({ dt, k: fc.constant('restart' as const), d }),
  fc.record({ dt, k: fc.constant('skew' as const), d, seconds: fc.oneof(fc.integer({ min: -MAX_SKEW_S, max: MAX_SKEW_S }), fc.constantFrom(-MAX_SKEW_S, MAX_SKEW_S)) }),
];

const syncs: fc.Arbitrary<Op>[] = [
  fc.record({ dt, k: fc.constant('sync' as const), d }),
  fc.record({ dt, k: fc.constant('syncWhileWriting' as const), d, write: fc.oneof(...create, ...edit, ...ledger, ...people) }),
  fc.record({
    dt,
    k: fc.constant('syncMany' as const),
    ds: fc.uniqueArray(d, { minLength: 2, maxLength: DEVICES }),
    delays: fc.array(fc.nat({ max: 15 }), { minLength: DEVICES, maxLength: DEVICES }),
  }),
];

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.oneof(...create) },
  { weight: 4, arbitrary: fc.oneof(...edit) },
  { weight: 2, arbitrary: fc.oneof(...keyed) },
  { weight: 2, arbitrary: fc.oneof(...people) },
  { weight: 3, arbitrary: fc.oneof(...team) },
  { weight: 4, arbitrary: fc.oneof(...ledger) },
  { weight: 4, arbitrary: fc.oneof(...syncs) },
  { weight: 5, arbitrary: fc.oneof(...faults) },
);

/** Where device 3 joins: with the others before the first operation (null), or before operation n (at the heal when n is past the end). */
export const joinAtArb: fc.Arbitrary<number | null> = fc.option(fc.nat({ max: 30 }), { nil: null, freq: 2 });

/** One run in four links an entity that has no data yet (issue 31: its hosted log starts empty). */
export const emptyAtLinkArb: fc.Arbitrary<boolean> = fc.nat({ max: 3 }).map((n) => n === 0);

/**
 * Two halves of up to `half` operations each: runs of ~`half` operations on average, rarely very
 * short, and a failure can still shrink to the few operations that matter.
 */
export function opsArb(half: number): fc.Arbitrary<Op[]> {
  const part = fc.array(opArb, { minLength: 0, maxLength: half, size: 'max' });
  return fc.tuple(part, part).map(([a, b]) => [...a, ...b]);
}
