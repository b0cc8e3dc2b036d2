// Public signing pages on the hosted instance: a signer opens, signs or declines through the
// link they were sent while every device of the entity may be offline. The rules, state changes
// and audit entries are the signing core's (documents/signing-core/, as on a device); its store
// here (signing-store.ts) writes what a signer does to the entity's log as the hosted instance's
// own changes, with time, IP and user agent, and they reach the devices as any other device's do. The request is
// completed and sealed by an owner's device, which holds the seal key; this instance never does.
import type { z } from 'zod';
import { declineRequest, expireRequest, isOverdue, recordView, signedName, signingView, signRequest, type Acting, type ClientInfo, type signBody } from '../documents/index.js';
import { NotFoundError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { recordHostedChanges } from './mirror.js';
import { queueHostedMail } from './signing-mail.js';
import { load, type Loaded } from './signing-load.js';
import { hostedRequestStore, hostedSigningStore } from './signing-store.js';
import { openBlob, type OpenedBlob } from './blobs.js';

export { auditChanges } from './signing-store.js';
export type { ClientInfo } from '../documents/index.js';

const view = (l: Loaded) => signingView(l.r, l.s, l.doc, l.all, l.fields);

/**
 * What the link shows now. A sent request past its due date expires here first, as on a device
 * (a guarded transition and an audit entry), so an overdue link can no longer be signed while the
 * devices are offline.
 */
async function loadCurrent(h: HostedContext, token: string): Promise<Loaded> {
  const l = await h.store.db.transaction((tx) => load(tx, token));
  if (!isOverdue(l.r, serverTime(h))) return l;
  return recordHostedChanges(h, l.entityId, async (tx) => {
    const now = await load(tx, token);
    const expiredAt = serverTime(h);
    const { store, changes } = hostedRequestStore(h, now, expiredAt);
    if (!expireRequest(store, expiredAt)) return { changes: [], result: now };
    return { changes: changes(), result: { ...now, r: { ...now.r, status: 'expired', expiredAt } } };
  });
}

/** What the signer sees; their first open is recorded as `viewed` (time, IP, user agent). */
export async function viewAsSigner(h: HostedContext, token: string, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  if (first.r.status !== 'sent' || first.s.viewedAt) return view(first);
  return recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    const now = serverTime(h);
    const { store, changes } = hostedSigningStore(h, l, now);
    if (!recordView(store, { now, client, host: null })) return { changes: [], result: view(l) };
    return { changes: changes(), result: view({ ...l, s: { ...l.s, viewedAt: now } }) };
  });
}

/** Signs (fills the signer's fields) or declines. The last signature leaves completion to an owner's device. */
export async function submitSigning(h: HostedContext, token: string, body: z.output<typeof signBody>, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  const invited = await recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    const act: Acting = { now: serverTime(h), client, host: null };
    const { store, changes, invited: next } = hostedSigningStore(h, l, act.now);
    if (body.action === 'decline') declineRequest(store, body.reason, act);
    else signRequest(store, body.fields, act);
    // Sequential order: whoever's turn comes next is invited from here (their link is made when the mail goes out).
    for (const o of next) await queueHostedMail(h, tx, { entityId: l.entityId, kind: 'signing_invite', requestId: l.r.id, signerId: o.id });
    return { changes: changes(), result: next.length > 0 };
  });
  if (invited) h.mail?.wake();
  return h.store.db.transaction(async (tx) => view(await load(tx, token)));
}

/** The PDF for the signer (a stream): the sealed one once completed, else the original. */
export async function signerDocument(h: HostedContext, token: string): Promise<{ blob: OpenedBlob; name: string }> {
  const l = await h.store.db.transaction((tx) => load(tx, token));
  const signed = l.r.status === 'completed' && l.r.signedSha256;
  const sha = signed ? l.r.signedSha256! : l.doc.sha256;
  const blob = await openBlob(h, l.entityId, sha);
  if (!blob) throw new NotFoundError(signed ? 'The signed document has not reached the hosted instance yet' : 'The document has not reached the hosted instance yet');
  return { blob, name: signed ? signedName(l.doc.name) : l.doc.name };
}
