// What a device does when a signer's action on the hosted signing pages reaches it by sync: the
// events a device records when the signer acts on it (webhooks: `signer.signed`,
// `signature_request.declined`, `…expired`), and the request's creator told on the devices that
// complete requests. The request itself changed with the applied rows.
import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import type { LoggedChange } from '../kernel/module.js';
import { mayComplete } from './complete-signed.js';
import { queueOwnerMail } from './notify.js';
import { findRequest, signersOf } from './requests.js';

/** The hosted instance recorded these events itself (entity_events): here they are for local consumers only. */
const HOSTED = { replayOf: 'hosted' } as const;

export function reactToHostedSigning(ctx: Context, tx: Tx, entityId: string, changes: LoggedChange[]): void {
  for (const c of changes) {
    if (c.table !== 'signature_audit' || c.op !== 'fact') continue;
    const type = c.columns.type;
    if (type !== 'signed' && type !== 'declined' && type !== 'expired') continue;
    const data = typeof c.columns.data === 'string' ? (JSON.parse(c.columns.data) as { signerId?: string; reason?: string; dueDate?: string | null }) : {};
    const r = findRequest(tx, entityId, String(c.columns.request_id));
    const s = signersOf(tx, entityId, r.id).find((o) => o.id === data.signerId);
    const tellOwner = mayComplete(ctx, entityId);
    if (type === 'signed' && s) ctx.events.record(tx, { entityId, type: 'signer.signed', data: { requestId: r.id, signerId: s.id, name: s.name, email: s.email, role: s.role, signedAt: s.signedAt } }, HOSTED);
    if (type === 'declined' && s) {
      ctx.events.record(tx, { entityId, type: 'signature_request.declined', data: { requestId: r.id, title: r.title, signerId: s.id, name: s.name, email: s.email, reason: data.reason ?? '' } }, HOSTED);
      if (tellOwner) queueOwnerMail(ctx, tx, r, 'declined', `${s.name} <${s.email}> gave this reason: ${data.reason ?? ''}`);
    }
    if (type === 'expired') {
      ctx.events.record(tx, { entityId, type: 'signature_request.expired', data: { requestId: r.id, title: r.title, dueDate: r.dueDate } }, HOSTED);
      if (tellOwner) queueOwnerMail(ctx, tx, r, 'expired', '');
    }
  }
}
