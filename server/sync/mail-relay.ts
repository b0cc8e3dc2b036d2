// The device's mail queue hands a linked entity's mail to the hosted instance (`POST
// /sync/v1/mail`), which sends it with its own SMTP server: a device needs no mail server.
import type { Context } from '../context.js';
import type { HostedMailRelay, RelayedMail } from '../mail/index.js';
import { deviceToken, linkOf } from './engine-state.js';
import { callHosted } from './hosted-client.js';
import { relayMailAnswer, type RelayMailBody } from './protocol.js';
import { waitingChanges } from './waiting.js';

/** What the hosted instance takes of a queued mail's headers: never a From address (its own is used). */
function headersOf(m: RelayedMail): RelayMailBody['headers'] {
  const h = m.headers;
  if (!h) return undefined;
  return {
    ...(h.from ? { fromName: h.from.name ?? undefined, replyTo: h.from.address } : {}),
    ...(h.messageId ? { messageId: h.messageId } : {}),
    ...(h.inReplyTo ? { inReplyTo: h.inReplyTo } : {}),
    ...(h.references?.length ? { references: h.references } : {}),
  };
}

export const hostedMailRelay: HostedMailRelay = {
  linked: (ctx, entityId) => linkOf(ctx, entityId) !== undefined,
  caughtUp: (ctx, entityId) => waitingChanges(ctx, entityId) === 0,
  async send(ctx: Context, m: RelayedMail) {
    const link = linkOf(ctx, m.entityId);
    if (!link) throw new Error('The business is no longer linked');
    const body: RelayMailBody = { id: m.id, to: m.to, subject: m.subject, text: m.text, html: m.html, ref: m.ref, ...(m.purposeKey ? { purposeKey: m.purposeKey } : {}), ...(m.headers ? { headers: headersOf(m) } : {}) };
    const answer = await callHosted(link.hostedUrl, 'POST', '/sync/v1/mail', { token: deviceToken(ctx, link), body, schema: relayMailAnswer });
    return { status: answer.status, reason: answer.reason };
  },
};
