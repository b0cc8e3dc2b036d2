import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, MAX_AMOUNT, MoneyError, mustCurrency, parseCurrency, toMinor } from '../../server/ledger/money.js';
import { assertBalanced } from '../../server/ledger/journal.js';
import { LedgerInvariantError } from '../../server/ledger/assert.js';

describe('money', () => {
  it('knows ISO-4217 decimals from Intl and CODE/decimals assets', () => {
    expect(parseCurrency('USD')).toEqual({ code: 'USD', scale: 2 });
    expect(parseCurrency('JPY')).toEqual({ code: 'JPY', scale: 0 });
    expect(parseCurrency('BHD')).toEqual({ code: 'BHD', scale: 3 });
    expect(parseCurrency('ETH/18')).toEqual({ code: 'ETH/18', scale: 18 });
    for (const bad of ['usd', 'XXXX', 'ETH', 'ETH/99', '']) expect(parseCurrency(bad)).toBeNull();
  });

  it('converts decimal strings to minor units and refuses what does not fit', () => {
    const usd = mustCurrency('USD');
    expect(toMinor('125.5', usd)).toBe(12550n);
    expect(toMinor('0.10', usd)).toBe(10n);
    expect(toMinor('7', mustCurrency('JPY'))).toBe(7n);
    expect(toMinor('1.2300', usd)).toBe(123n); // trailing zeros are not extra precision
    for (const bad of ['1.234', '-1', '1e3', ' 1', '']) expect(() => toMinor(bad, usd)).toThrow(MoneyError);
    expect(() => toMinor((MAX_AMOUNT + 1n).toString(), mustCurrency('JPY'))).toThrow(/largest amount/);
  });

  it('round-trips every amount up to 128 bits in every scale', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT }), fc.constantFrom('USD', 'JPY', 'BHD', 'ETH/18', 'USDC/6'), (minor, code) => {
        const cur = mustCurrency(code);
        expect(toMinor(formatMinor(minor, cur), cur)).toBe(minor);
      }),
    );
    expect(formatMinor(-5n, 'USD')).toBe('-0.05');
  });
});

describe('assertBalanced', () => {
  const line = (side: 'debit' | 'credit', amount: bigint, currency = 'USD') => ({ accountId: 'a', side, amount, currency });
  it('accepts balanced entries per currency and throws on anything else', () => {
    expect(() => assertBalanced([line('debit', 5n), line('credit', 5n), line('debit', 2n, 'EUR'), line('credit', 2n, 'EUR')])).not.toThrow();
    expect(() => assertBalanced([line('debit', 5n), line('credit', 4n)])).toThrow(LedgerInvariantError);
    expect(() => assertBalanced([line('debit', 5n, 'USD'), line('credit', 5n, 'EUR')])).toThrow(/debits equal credits/);
    expect(() => assertBalanced([line('debit', 0n), line('credit', 0n)])).toThrow(/positive/);
    expect(() => assertBalanced([line('debit', 5n)])).toThrow(/at least two lines/);
  });
});
