// Codes people type by hand (add-device codes, invitations, e-mail confirmations): Crockford
// base32, so look-alike characters are read the same, and kept only as their SHA-256.
import crypto from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `length` characters (5 bits each), shown in two halves `XXXXX-XXXXX`. */
export function newCode(length = 10): { code: string; shown: string } {
  const code = Array.from(crypto.randomBytes(length), (b) => ALPHABET[b % 32]).join('');
  const half = Math.ceil(length / 2);
  return { code, shown: `${code.slice(0, half)}-${code.slice(half)}` };
}

/** What was typed, as the code was made: upper case, no separators, O read as 0 and I, L as 1. */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
