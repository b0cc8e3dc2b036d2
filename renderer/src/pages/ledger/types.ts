import type { z } from 'zod';
import type {
  accountSchema,
  batchReclassifyResponse,
  eventPageSchema,
  eventTypeSchema,
  journalEntrySchema,
  ledgerEventDetailSchema,
  ledgerEventSchema,
  settingsSchema,
  statusCountsSchema,
  trialBalanceResponse,
  profitAndLossResponse,
  balanceSheetResponse,
} from '../../../../server/ledger/schemas';

export type LedgerEvent = z.output<typeof ledgerEventSchema>;
export type LedgerEventDetail = z.output<typeof ledgerEventDetailSchema>;
export type EventPage = z.output<typeof eventPageSchema>;
export type StatusCounts = z.output<typeof statusCountsSchema>;
export type EventType = z.output<typeof eventTypeSchema>;
export type JournalEntry = z.output<typeof journalEntrySchema>;
export type Account = z.output<typeof accountSchema>;
export type TrialBalance = z.output<typeof trialBalanceResponse>;
export type ProfitAndLoss = z.output<typeof profitAndLossResponse>;
export type BalanceSheet = z.output<typeof balanceSheetResponse>;
export type ReclassifyResult = z.output<typeof batchReclassifyResponse>;
export type LedgerSettings = z.output<typeof settingsSchema>;
export type PostingStatus = LedgerEvent['postingStatus'];

export const STATUSES: { value: PostingStatus; label: string; tone: 'green' | 'amber' | 'violet' | 'red' | 'neutral' }[] = [
  { value: 'posted', label: 'Posted', tone: 'green' },
  { value: 'pending_approval', label: 'Pending approval', tone: 'amber' },
  { value: 'reversed', label: 'Reversed', tone: 'violet' },
  { value: 'failed', label: 'Failed', tone: 'red' },
  { value: 'unposted', label: 'Unposted', tone: 'neutral' },
];

export const statusInfo = (s: PostingStatus) => STATUSES.find((x) => x.value === s)!;

/** "invoice_created" → "Invoice created" when the catalogue is not at hand. */
export const humanType = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');

/** The headline amount of a payload: `amount`, else `netAmount` (+ tax shown separately). */
export function payloadAmount(payload: Record<string, unknown>): string {
  const currency = typeof payload.currency === 'string' ? payload.currency : '';
  const amount = payload.amount ?? payload.netAmount;
  if (typeof amount !== 'string') return '—';
  const tax = typeof payload.taxAmount === 'string' && /[1-9]/.test(payload.taxAmount) ? ` + ${payload.taxAmount} tax` : '';
  return `${currency} ${amount}${tax}`;
}
