import type { Schema } from '../../api';

// The server's own shapes (generated from its OpenAPI document), so a change of API shape shows up here at compile time.
export type LedgerEvent = Schema<'LedgerEvent'>;
export type LedgerEventDetail = Schema<'LedgerEventDetail'>;
export type EventPage = Schema<'LedgerEventPage'>;
export type StatusCounts = Schema<'LedgerStatusCounts'>;
export type EventType = Schema<'LedgerEventType'>;
export type JournalEntry = Schema<'LedgerJournalEntry'>;
export type Account = Schema<'LedgerAccount'>;
export type TrialBalance = Schema<'LedgerTrialBalance'>;
export type ProfitAndLoss = Schema<'LedgerProfitAndLoss'>;
export type BalanceSheet = Schema<'LedgerBalanceSheet'>;
export type ReclassifyResult = Schema<'LedgerBatchReclassifyResult'>;
export type LedgerSettings = Schema<'LedgerSettings'>;
export type EventCheck = Schema<'LedgerEventCheck'>;
export type PostingStatus = Schema<'LedgerPostingStatus'>;

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
