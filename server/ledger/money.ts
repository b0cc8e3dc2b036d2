/**
 * Money as bigint minor units. A currency is an ISO-4217 code (its number of decimals comes
 * from the runtime's Intl data, e.g. USD → 2, JPY → 0) or, for assets outside ISO-4217, a
 * Formance-style `CODE/decimals` such as `ETH/18` or `USDC/6`.
 */
export interface Currency {
  code: string;
  scale: number;
}

/** TigerBeetle's amount width: every line amount fits in an unsigned 128-bit integer. */
export const MAX_AMOUNT = (1n << 128n) - 1n;

const ISO_CODES = new Set(Intl.supportedValuesOf('currency'));
const CUSTOM = /^([A-Z][A-Z0-9]{1,9})\/(\d{1,2})$/;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

const cache = new Map<string, Currency | null>();

export function parseCurrency(code: string): Currency | null {
  let cur = cache.get(code);
  if (cur === undefined) {
    cur = readCurrency(code);
    if (cache.size < 1000) cache.set(code, cur);
  }
  return cur;
}

function readCurrency(code: string): Currency | null {
  if (ISO_CODES.has(code)) {
    const scale = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    return { code, scale };
  }
  const m = CUSTOM.exec(code);
  if (m && Number(m[2]) <= 30) return { code, scale: Number(m[2]) };
  return null;
}

export function isCurrency(code: string): boolean {
  return parseCurrency(code) !== null;
}

export class MoneyError extends Error {}

/** "125.5" in USD → 12550n. Refuses more decimals than the currency has, and signs. */
export function toMinor(amount: string, currency: Currency): bigint {
  const m = DECIMAL.exec(amount);
  if (!m) throw new MoneyError(`"${amount}" is not a decimal amount`);
  const fraction = m[2] ?? '';
  if (fraction.replace(/0+$/, '').length > currency.scale) throw new MoneyError(`"${amount}" has more than ${currency.scale} decimals, the most ${currency.code} allows`);
  const minor = BigInt(m[1] + fraction.padEnd(currency.scale, '0').slice(0, currency.scale));
  if (minor > MAX_AMOUNT) throw new MoneyError(`"${amount}" is larger than the largest amount the ledger holds`);
  return minor;
}

/** 12550n in USD → "125.50"; negative amounts keep their sign. */
export function formatMinor(minor: bigint, currency: Currency | string): string {
  const cur = typeof currency === 'string' ? mustCurrency(currency) : currency;
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(cur.scale + 1, '0');
  const whole = digits.slice(0, digits.length - cur.scale);
  const fraction = cur.scale ? `.${digits.slice(digits.length - cur.scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export function mustCurrency(code: string): Currency {
  const cur = parseCurrency(code);
  if (!cur) throw new MoneyError(`"${code}" is not a known currency`);
  return cur;
}
