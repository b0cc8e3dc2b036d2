import type { Module } from '../kernel/module.js';
import { fact, guarded, local, mutable } from '../kernel/sync-policy.js';
import { ledgerRoutes } from './routes.js';
import { ledgerEvents } from './events.js';

/** The ledger: business events, the posting engine, the double-entry journal and its reports. */
export const ledgerModule: Module = {
  name: 'ledger',
  routes: ledgerRoutes,
  events: ledgerEvents,
  sync: {
    ledger_settings: mutable,
    // Ids by code (ids.ts): the default chart seeded on two devices is one chart.
    ledger_accounts: mutable,
    // Posting, approval, rejection and reversal are guarded transitions of the posting status:
    // when two devices decide the same event, the first to reach the hosted instance wins and the
    // other's decision, with the journal entry it wrote, is undone there.
    ledger_events: guarded('posting_status'),
    ledger_entries: fact,
    ledger_lines: fact,
    // Derived from the lines by triggers on every device, also for lines that arrive by sync.
    ledger_balances: local('derived from ledger_lines by triggers'),
    ledger_day_totals: local('derived from ledger_lines by triggers'),
    ledger_day_entries: local('derived from ledger_entries by triggers'),
    ledger_search_docs: local('the full-text index, derived from ledger_events by triggers'),
  },
};

export { postEvent, type PostEventResult } from './post-event.js';
export type { PostEventInput } from './schemas.js';
export { formatMinor, toMinor, parseCurrency } from './money.js';
export { listAccounts } from './accounts.js';
export { searchLedgerEvents } from './search-hits.js';
export { ACC } from './chart.js';
export { accountIdOf, eventIdOf } from './ids.js';
export { netDebitOf } from './balances.js';
export { reverseEvent } from './reverse-event.js';
export { MAX_CSV_LINES, csvField, exportJournalCsvNow } from './journal-report.js';
