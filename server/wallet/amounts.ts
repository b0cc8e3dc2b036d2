// Amounts are decimal strings of base units (wei, token units) in JSON and bigint in code.
import { getAddress, isAddress, zeroAddress, type Address } from 'viem';
import { AMOUNT_LIMIT } from '../privacy/index.js';
import { BadRequestError } from '../http/errors.js';
import { InvalidAmountError } from './errors.js';

const DECIMAL = /^[0-9]{1,39}$/;

/** A positive amount below 2^128 (the circuit's range), or `Valid amount required`. */
export function parseAmount(raw: unknown): bigint {
  if (typeof raw !== 'string' || !DECIMAL.test(raw.trim())) throw new InvalidAmountError();
  const value = BigInt(raw.trim());
  if (value <= 0n || value >= AMOUNT_LIMIT) throw new InvalidAmountError();
  return value;
}

/** `token` as an address; omitted or the zero address means native ETH. */
export function parseToken(raw: string | undefined): Address {
  if (raw === undefined || raw === '') return zeroAddress;
  if (!isAddress(raw, { strict: false })) throw new BadRequestError('token must be an ERC-20 contract address (0x…) or omitted for native ETH');
  return getAddress(raw);
}

export function isNative(token: string): boolean {
  return BigInt(token) === 0n;
}
