// Private payments nobody has said anything about yet: they wait in the clearing accounts
// (Uncategorised payments 1900, Uncategorised receipts 2900) until someone says what each was;
// saying it rebooks the event under the same type with its account (a correction the ledger keeps).
import { useState } from 'react';
import { client, invalidateEntity, unwrap, useEntityQuery, type ApiData, type Schema } from '../../api';
import { Button, Card, ErrorBanner, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { Money } from '../../ui/money';
import { NO_PURPOSE, PurposeFields, purposeOf, type PurposeChoice } from './PurposeFields';
import { ACC } from '../../../../server/shared/ledger/accounts';
import { bookingOf } from '../../../../server/shared/wallet/payment-booking';

type LedgerEvent = Schema<'LedgerEvent'>;
type ReclassifyResult = ApiData<'/api/ledger/events/batch-reclassify', 'post'>['results'][number];

const uncategorised = (e: LedgerEvent) => !e.payload.counterAccount && !e.payload.billNumber && !e.payload.invoiceNumber;

async function loadUncategorised(): Promise<LedgerEvent[]> {
  const pages = await Promise.all(
    (['private_payment_received', 'private_payment_sent'] as const).map((type) => unwrap(client.GET('/api/ledger/events', { params: { query: { type, postingStatus: 'posted', pageSize: 100 } } }))),
  );
  return pages.flatMap((p) => ('events' in p ? p.events : [])).filter(uncategorised).sort((a, b) => b.timestamp.localeCompare(a.timestamp));
}

/** Why the books refused: a balance no business can have — said without an option this card does not offer. */
function refusal(result: ReclassifyResult | undefined): string {
  const first = result?.impossibleBalances?.[0];
  if (!first) return result?.message ?? 'Not rebooked';
  return `Would leave ${first.name} (${first.code}) at ${first.balance} ${first.currency}: was that invoice or bill already settled? Check its number, or choose what else it was.`;
}

export function UncategorisedCard() {
  const events = useEntityQuery(['wallet', 'uncategorised'], loadUncategorised, { refetchInterval: 8000 });
  if (!events.data?.length) return null;
  return (
    <Card title="Say what these payments were">
      <p className="muted" style={{ marginTop: 0 }}>
        Until you do, the books keep them in Uncategorised receipts and Uncategorised payments.
      </p>
      <ErrorBanner error={events.error?.message} />
      <div className="stack">
        {events.data.map((e) => (
          <UncategorisedRow key={e.id} event={e} onDone={() => void invalidateEntity('wallet', 'uncategorised')} />
        ))}
      </div>
    </Card>
  );
}

type ReceiptKind = 'invoice' | 'income' | 'owner' | 'own_business';
const RECEIPT_KINDS: { value: ReceiptKind; label: string }[] = [
  { value: 'invoice', label: 'An invoice paid' },
  { value: 'income', label: 'Income' },
  { value: 'owner', label: 'An owner contribution' },
  { value: 'own_business', label: 'One of our own businesses' },
];

/** The payload fields that book a receipt or a payment for what it was, or a message for what is missing. */
function bookingFields(event: LedgerEvent, receipt: { kind: ReceiptKind; invoiceNumber: string }, payment: PurposeChoice): { fields?: Record<string, string | undefined>; problem?: string } {
  if (event.type === 'private_payment_received') {
    if (receipt.kind === 'invoice') return receipt.invoiceNumber.trim() ? { fields: { invoiceNumber: receipt.invoiceNumber.trim(), counterAccount: ACC.receivable } } : { problem: 'Enter the invoice number.' };
    return { fields: { counterAccount: { income: ACC.otherIncome, owner: ACC.ownerEquity, own_business: ACC.ownBusinesses }[receipt.kind] } };
  }
  const { purpose, problem } = purposeOf(payment);
  if (problem) return { problem };
  if (!purpose) return { problem: 'Choose what it paid.' };
  // Booked as the wallet books a payment whose purpose was said when it was sent.
  return { fields: bookingOf(purpose) };
}

function UncategorisedRow({ event, onDone }: { event: LedgerEvent; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [receipt, setReceipt] = useState<{ kind: ReceiptKind; invoiceNumber: string }>({ kind: 'invoice', invoiceNumber: '' });
  const [payment, setPayment] = useState<PurposeChoice>(NO_PURPOSE);
  const [problem, setProblem] = useState<string | null>(null);
  const received = event.type === 'private_payment_received';
  const save = useAction(async () => {
    const { fields, problem: missing } = bookingFields(event, receipt, payment);
    setProblem(missing ?? null);
    if (!fields) return;
    const result = await unwrap(client.POST('/api/ledger/events/batch-reclassify', { body: { eventIds: [event.id], newEventType: event.type, payloads: { [event.id]: { ...event.payload, ...fields } } } }));
    if (!result.results[0]?.success) return setProblem(refusal(result.results[0]));
    onDone();
  });
  return (
    <div className="stack" style={{ gap: 8 }} data-uncategorised={event.id}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <span>
          {received ? 'Received' : 'Paid'} <Money amount={String(event.payload.amount)} currency={String(event.payload.currency)} /> privately · {new Date(event.timestamp).toLocaleDateString()}
        </span>
        {!open && <Button onClick={() => setOpen(true)}>Say what it was</Button>}
      </div>
      {open && (
        <div className="form">
          {received ? (
            <>
              <SelectInput label="What was it?" value={receipt.kind} onChange={(e) => setReceipt({ ...receipt, kind: e.target.value as ReceiptKind })} options={RECEIPT_KINDS} />
              {receipt.kind === 'invoice' && <TextInput label="Invoice number" value={receipt.invoiceNumber} onChange={(e) => setReceipt({ ...receipt, invoiceNumber: e.target.value })} placeholder="e.g. INV-1042" />}
            </>
          ) : (
            <PurposeFields value={payment} onChange={setPayment} />
          )}
          <ErrorBanner error={problem ?? save.error} />
          <div className="row">
            <Button variant="primary" busy={save.pending} onClick={() => void save.run()}>
              Book it
            </Button>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
