// "What does it pay?" for a private payment out: the books take it from here (a bill settles
// Accounts payable, an expense goes to its account); "Decide later" books it to Uncategorised
// payments, where the wallet's list asks again.
import type { z } from 'zod';
import { SelectInput, TextInput } from '../../ui/components';
import { useLedgerAccounts } from './data';
import type { paymentPurpose } from '../../../../server/wallet/schemas';

export type PaymentPurpose = NonNullable<z.infer<typeof paymentPurpose>>;
export type PurposeKind = PaymentPurpose['kind'] | 'later';

export interface PurposeChoice {
  kind: PurposeKind;
  billNumber: string;
  account: string;
}

export const NO_PURPOSE: PurposeChoice = { kind: 'later', billNumber: '', account: '' };

const KINDS: { value: PurposeKind; label: string }[] = [
  { value: 'later', label: 'Decide later (Uncategorised payments)' },
  { value: 'bill', label: 'A supplier bill' },
  { value: 'expense', label: 'An expense' },
  { value: 'own_business', label: 'One of our own businesses' },
  { value: 'owner_drawing', label: 'An owner drawing' },
];

/** The choice as the API takes it, or a message for the field that is missing. */
export function purposeOf(choice: PurposeChoice): { purpose?: PaymentPurpose; problem?: string } {
  switch (choice.kind) {
    case 'later':
      return {};
    case 'bill':
      return choice.billNumber.trim() ? { purpose: { kind: 'bill', billNumber: choice.billNumber.trim() } } : { problem: 'Enter the number of the bill it pays.' };
    case 'expense':
      return choice.account ? { purpose: { kind: 'expense', account: choice.account } } : { problem: 'Choose the kind of expense.' };
    default:
      return { purpose: { kind: choice.kind } };
  }
}

export function PurposeFields({ value, onChange, disabled }: { value: PurposeChoice; onChange: (next: PurposeChoice) => void; disabled?: boolean }) {
  const accounts = useLedgerAccounts();
  const expenses = (accounts.data ?? []).filter((a) => a.type === 'expense');
  return (
    <>
      <SelectInput label="What does it pay?" value={value.kind} onChange={(e) => onChange({ ...value, kind: e.target.value as PurposeKind })} options={KINDS} disabled={disabled} />
      {value.kind === 'bill' && <TextInput label="Bill number" value={value.billNumber} onChange={(e) => onChange({ ...value, billNumber: e.target.value })} disabled={disabled} placeholder="e.g. B-1042" />}
      {value.kind === 'expense' && (
        <SelectInput
          label="Expense"
          value={value.account}
          onChange={(e) => onChange({ ...value, account: e.target.value })}
          options={[{ value: '', label: 'Choose…' }, ...expenses.map((a) => ({ value: a.code, label: `${a.code} ${a.name}` }))]}
          disabled={disabled}
        />
      )}
    </>
  );
}
