import { z } from 'zod';
import { BadRequestError } from './errors.js';

/**
 * The one list cursor: a keyset position (the sort key and the id that breaks ties), opaque to
 * callers as base64url JSON `[key, id]` — the wire format every paged list has used, so cursors
 * handed out before still decode.
 */
export type KeysetPosition = [key: string, id: string];

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor a caller sent back; anything else is a 400. */
export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string')) return v as KeysetPosition;
  } catch {
    // fall through
  }
  throw new BadRequestError('cursor is not valid');
}

/**
 * The query fields of a list whose paging is opt-in (the spec's lists answer everything unpaged):
 * `limit` and `cursor`, the next page's cursor in `x-next-cursor`. `items` names what is listed.
 */
export function optInPaging(items: string) {
  return {
    limit: z.coerce
      .number('must be a number')
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(200, 'must be at most 200')
      .optional()
      .meta({ description: `Page size (1–200). Paging is opt-in: without \`limit\` and \`cursor\` every matching ${items} is returned.` }),
    cursor: z.string().max(200).optional().meta({ description: 'Opaque cursor from the `x-next-cursor` response header of the previous page (page size `limit`, default 50).' }),
  };
}
