// Amounts as people read them: a crypto currency's code `ETH/18` (symbol / decimals, as the books
// keep it) is shown as `ETH`, and its 18 decimals trimmed to what matters; the full figure stays
// on hover and in the copied text (title). Fiat amounts are shown as the books keep them.

/** `ETH/18` → `ETH`; `USD` → `USD`. */
export function currencyLabel(currency: string): string {
  return currency.split('/')[0];
}

/** Decimals shown at most for a crypto amount (0.000001 ETH is about a thousandth of a cent). */
const SHOWN_DECIMALS = 6;

/** "0.250000000000000000" → "0.25"; "1.000000000000000000" → "1.00"; "0.000000000000000001" → "<0.000001". */
export function displayDecimal(amount: string, currency: string): string {
  if (!currency.includes('/')) return amount;
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const kept = fraction.slice(0, SHOWN_DECIMALS).replace(/0+$/, '').padEnd(2, '0');
  if (/^0*$/.test(whole) && /^0*$/.test(kept) && /[1-9]/.test(fraction)) return `${negative ? '>-' : '<'}0.${'0'.repeat(SHOWN_DECIMALS - 1)}1`;
  const rounded = fraction.length > SHOWN_DECIMALS && /[1-9]/.test(fraction.slice(SHOWN_DECIMALS)) ? '≈' : '';
  return `${rounded}${negative ? '-' : ''}${whole}.${kept}`;
}

/** An amount with its currency, readable, with the exact figure on hover. */
export function Money({ amount, currency, showCurrency = true }: { amount: string; currency: string; showCurrency?: boolean }) {
  const exact = `${amount} ${currency}`;
  const shown = `${displayDecimal(amount, currency)}${showCurrency ? ` ${currencyLabel(currency)}` : ''}`;
  return shown === exact ? <>{shown}</> : <span title={exact}>{shown}</span>;
}
