import type { Module } from '../kernel/module.js';
import { local } from '../kernel/sync-policy.js';
import { mailRoutes } from './routes.js';
import { sendDueMail } from './mail.js';
import { mailEvents } from './events.js';

// What other modules use of mail: queue in their transaction, re-queue, and read retry errors.
export { queueMail, requeueMail, retryErrors, mailRouteOf, dropQueuedMail, type MailInput } from './mail.js';
export { registerHostedMailRelay, registerMailReasonCheck, type HostedMailRelay, type RelayedMail, type RelayAnswer } from './routing.js';
export type { MailHeaders } from './tables.js';
// One way to queue a mail on both sides (storage behind `MailOutbox`), and the queue mechanism itself, which the hosted instance's mail queues use too.
export { enqueueMail, signingMailRef, signingPurposeKey, type MailMessage, type MailOutbox, type MailRef, type MailToQueue, type OutgoingMail, type SigningMailKind } from './enqueue.js';
export { MAIL_BATCH, MAX_MAIL_ATTEMPTS, failureOf, mailBackoffMs, purposeKeyOf, sendDueFrom, type Delivery, type MailFailure, type MailQueueStore, type PassCounts, type QueuedMail, type RetryPolicy } from './queue.js';

export const mailModule: Module = {
  name: 'mail',
  routes: mailRoutes,
  events: mailEvents,
  sync: {
    mail_outbox: local('mail is sent by the device where the change began'),
    mail_settings: local("this install's own SMTP server"),
  },
  start(ctx) {
    ctx.loops.add('mail.send', 5_000, async () => void (await sendDueMail(ctx)));
  },
};
