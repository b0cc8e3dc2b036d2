// What a signer does, once for both the desktop and the hosted signing pages: each use case reads
// the state its store loaded, applies the rules (rules.ts) and makes its changes through the store
// (store.ts), so the state changes and audit entries are the same wherever the signer signs.
// Completing and sealing stay on a device (the seal key never leaves the owners' devices).
import { SYSTEM_ACTOR, type AuditActor } from './audit-chain.js';
import { allSigned, assertCanAct, assertTurn, inPersonData, signedValues, signerActor, signersToInvite } from './rules.js';
import type { RequestStore, SigningStore } from './store.js';
import type { ClientInfo } from './types.js';

/** `host`: the member who hands their screen to the signer (in-person signing on a device), else null. */
export interface Acting {
  now: string;
  client: ClientInfo;
  host: AuditActor | null;
}

/** The signer's first open of their link, recorded as `viewed` (not when a host opens it for them). */
export function recordView(store: SigningStore, act: Acting): boolean {
  const { r, s } = store.state;
  if (r.status !== 'sent' || s.viewedAt || act.host) return false;
  store.updateSigner({ viewedAt: act.now });
  store.appendAudit({ type: 'viewed', actor: signerActor(s), ip: act.client.ip, userAgent: act.client.userAgent, data: { signerId: s.id } });
  return true;
}

/** A sent request past its due date expires (the signers can no longer act on it). */
export function expireRequest(store: RequestStore, now: string): boolean {
  const r = store.request;
  if (r.status !== 'sent') return false;
  store.updateRequest({ status: 'expired', expiredAt: now, updatedAt: now }, { status: 'sent' });
  store.appendAudit({ type: 'expired', actor: SYSTEM_ACTOR, data: { dueDate: r.dueDate } });
  store.recordEvent('signature_request.expired', { requestId: r.id, title: r.title, dueDate: r.dueDate });
  store.tellOwner('expired', '');
  return true;
}

/**
 * The signer fills their fields and signs; whoever's turn comes next is invited. `finished`: every
 * acting signer has signed, and the request is ready to be completed (sealed) by a device.
 */
export function signRequest(store: SigningStore, given: { fieldId: string; value: string | boolean }[], act: Acting): { finished: boolean; invited: string[] } {
  const { r, s, all, fields } = store.state;
  const { now, client } = act;
  assertCanAct(r, s);
  assertTurn(r, all, s);
  const values = signedValues(fields, s, given, now);
  store.fillFields(values.map(({ f, value }) => ({ id: f.id, value, filledAt: value === null ? null : now })));
  store.updateSigner({ status: 'signed', signedAt: now, signedIp: client.ip, signedUserAgent: client.userAgent?.slice(0, 400) ?? null, viewedAt: s.viewedAt ?? now }, { status: 'pending' });
  store.updateRequest({ updatedAt: now });
  const fieldCount = values.filter((v) => v.value !== null).length;
  store.appendAudit({ type: 'signed', actor: signerActor(s), ip: client.ip, userAgent: client.userAgent, data: { signerId: s.id, role: s.role, fieldCount, ...inPersonData(act.host) } });
  store.recordEvent('signer.signed', { requestId: r.id, signerId: s.id, name: s.name, email: s.email, role: s.role, signedAt: now });
  const after = all.map((o) => (o.id === s.id ? { ...o, status: 'signed' as const } : o));
  if (allSigned(after)) return { finished: true, invited: [] };
  const next = signersToInvite(r, after);
  if (next.length > 0) store.inviteSigners(next);
  return { finished: false, invited: next.map((o) => o.id) };
}

/** The signer declines: the request is declined for everyone, and its creator told. */
export function declineRequest(store: SigningStore, reason: string, act: Acting): void {
  const { r, s } = store.state;
  const { now, client } = act;
  assertCanAct(r, s);
  store.updateSigner({ status: 'declined', declinedAt: now, declineReason: reason }, { status: 'pending' });
  store.updateRequest({ status: 'declined', declinedAt: now, updatedAt: now }, { status: 'sent' });
  store.appendAudit({ type: 'declined', actor: signerActor(s), ip: client.ip, userAgent: client.userAgent, data: { signerId: s.id, reason, ...inPersonData(act.host) } });
  store.recordEvent('signature_request.declined', { requestId: r.id, title: r.title, signerId: s.id, name: s.name, email: s.email, reason });
  store.tellOwner('declined', `${s.name} <${s.email}> gave this reason: ${reason}`);
}
