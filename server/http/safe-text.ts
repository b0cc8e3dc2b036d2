// Text the stores can hold: PostgreSQL (and PGlite) refuse a NUL character and a UTF-16 surrogate
// without its pair, so such a string must be refused where it comes in, with a 400 or a rejected
// change, and never reach a query (where it was a 500). No person types either.
import { z } from 'zod';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

export function isSafeText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** A string without NUL or unpaired surrogates; chain `.trim()`, `.min()`, `.max()` as on any string. */
export function safeText() {
  return z.string().refine(isSafeText, UNSAFE_TEXT_MESSAGE);
}
