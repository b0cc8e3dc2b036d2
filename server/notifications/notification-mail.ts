// The e-mail that goes with a notification, for each recipient who wants one for its kind. Queued
// in the transaction that raises the notification, so it goes out once, from that device (through
// the device's mail queue, which the hosted instance relays when the entity is linked).
import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import { queueMail } from '../mail/index.js';
import { memberAddressesOf } from '../auth/index.js';
import { wantsEmail } from './email-prefs.js';
import type { NotificationMail } from './notifications.js';

interface Raised {
  id: string;
  entityId: string;
  userId: string | null;
  type: string;
  title: string;
  body: string | null;
  link: string | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Title, body and where to look: app paths open in Bureau, so the mail names the page rather than a link that only works on one machine. */
function defaultContent(n: Raised, name: string): NotificationMail {
  const where = n.link && /^https?:\/\//i.test(n.link) ? n.link : 'Open Bureau → Notifications to see it.';
  const lines = [`Hello ${name},`, n.title, ...(n.body ? [n.body] : []), where];
  return { subject: n.title, text: lines.join('\n\n'), html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, '<br>')}</p>`).join('')}</body></html>` };
}

export function queueNotificationMail(ctx: Context, tx: Tx, n: Raised, content?: (recipient: { name: string; email: string }) => NotificationMail | null): number {
  let queued = 0;
  for (const r of memberAddressesOf(tx, n.entityId, n.userId ?? undefined)) {
    if (!wantsEmail(tx, n.entityId, r.userId, n.type)) continue;
    const mail = content ? content(r) : defaultContent(n, r.name);
    if (!mail) continue;
    queueMail(ctx, tx, { entityId: n.entityId, to: r.email, subject: mail.subject, text: mail.text, html: mail.html, ref: { kind: 'notification', notificationId: n.id, userId: r.userId, ...mail.ref }, ...(mail.purposeKey ? { purposeKey: mail.purposeKey } : {}) });
    queued += 1;
  }
  return queued;
}
