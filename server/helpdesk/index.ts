import type { Module } from '../kernel/module.js';
import { helpdeskRoutes } from './routes.js';
import { mailboxRoutes } from './mail-routes.js';
import { startMailIn, stopMailIn } from './mail-watch.js';
import { recordDeliveryResults } from './deliveries.js';

import { fact, local, mutable } from '../kernel/sync-policy.js';
import { helpdeskEvents } from './events.js';

export const helpdeskModule: Module = {
  name: 'helpdesk',
  routes: [...helpdeskRoutes, ...mailboxRoutes],
  events: helpdeskEvents,
  sync: {
    helpdesk_tickets: mutable,
    helpdesk_messages: fact,
    helpdesk_categories: mutable,
    helpdesk_settings: mutable,
    helpdesk_node: local("this install's tag in provisional ticket numbers"),
    helpdesk_ticket_counters: local("this install's counters: an unlinked entity's series, a linked one's provisional numbers (the hosted instance counts the final ones)"),
    helpdesk_mailboxes: mutable,
    helpdesk_mailbox_imap: local('the mailbox is connected on one install, and its password is sealed with this device key'),
    helpdesk_emails: fact,
    helpdesk_deliveries: mutable,
    helpdesk_attachments: { kind: 'fact', blobs: ['sha256'] },
    helpdesk_search_docs: local('the full-text index, derived from tickets and messages by triggers'),
    helpdesk_trigram_docs: local("the subject trigram index's keys, derived from tickets by triggers"),
    helpdesk_trigram_entities: local("the subject trigram index's entity numbers, derived from tickets by triggers"),
  },
  start(ctx) {
    ctx.events.registerConsumer('helpdesk.deliveries', recordDeliveryResults(ctx));
    startMailIn(ctx);
  },
  stop: (ctx) => stopMailIn(ctx),
};
export { searchTickets } from './search-hits.js';
export { derivePrefix, sequenceOf, TICKET_PREFIX } from './ticket-prefix.js';
