// `POST /sync/v1/mail`: a linked device hands over one e-mail for this instance to send.
import express from 'express';
import { createRateLimiter } from '../http/rate-limit.js';
import { MAX_MAIL_REQUEST_BYTES, relayMailAnswer, relayMailBody } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { endpoint, type HostedEndpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { acceptRelayedMail } from './relayed-mail.js';

export function mailEndpoints(h: HostedContext, limits: HostedLimits): HostedEndpoint[] {
  const perDevice = createRateLimiter(h.clock, limits.mail);
  const badTokens = createRateLimiter(h.clock, limits.badToken);
  return [
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/mail',
        summary: 'Send one e-mail for the entity (a device without an SMTP server of its own)',
        description:
          'Idempotent by `id` (the device mail id): the same id again answers 200 with what became of it, and nothing is sent twice. One recipient, an address the entity knows: a member, a signer of one of its requests, a ticket contact (403 otherwise). A signing invitation or reminder whose request or signer moved on is answered `dropped`, as is a second mail under one `purposeKey`. The From address is this instance\'s own (a helpdesk mailbox\'s name and Reply-To are kept). The body is kept only until the mail is sent.',
        tags: ['Sync: mail'],
        access: 'device',
        // Mail goes out where a change began, and viewers change nothing.
        roles: { only: ['owner', 'admin', 'member'], refusal: 'A viewer cannot send mail' },
        badTokens,
        limit: perDevice,
        before: [express.json({ limit: MAX_MAIL_REQUEST_BYTES })],
        maxBodyBytes: MAX_MAIL_REQUEST_BYTES,
        body: relayMailBody,
        response: relayMailAnswer,
        status: 202,
        alsoAnswers: { 200: { description: 'Already handed over (the same `id`), or another device already sent this `purposeKey`: what became of it', schema: relayMailAnswer } },
        errors: {
          403: 'The recipient is not an address this business knows',
          429: "Too many e-mails from this device, or the business's daily quota is used up (Retry-After)",
          503: 'This instance has no SMTP server to send with',
        },
      },
      async ({ res, device, body }) => {
        const { duplicate, ...answer } = await acceptRelayedMail(h, device, body, limits.mailQuota);
        res.status(duplicate ? 200 : 202).json(answer);
      },
    ),
  ];
}
