// A payload's problems per field, in words a person can act on: zod says "Invalid input: expected
// string, received undefined" for a field left empty, the form says "Required".
import type { z } from 'zod';

export interface FieldIssue {
  /** From the payload's root; empty for the payload as a whole. */
  path: (string | number)[];
  message: string;
}

function valueAt(payload: unknown, path: readonly PropertyKey[]): unknown {
  let node = payload;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

export function payloadIssues(error: z.ZodError, payload: unknown): FieldIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.code === 'invalid_type' && i.path.length > 0 && valueAt(payload, i.path) === undefined ? 'Required' : i.message,
  }));
}

/** "netAmount" → "net amount". */
const words = (key: string | number) => String(key).replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** One sentence for a result line: the fields to fill in first, then the other problems. */
export function describeIssues(issues: FieldIssue[]): string {
  const missing = issues.filter((i) => i.message === 'Required').map((i) => i.path.map(words).join(' '));
  const other = issues.filter((i) => i.message !== 'Required').map((i) => (i.path.length ? `${i.path.map(words).join(' ')}: ${i.message}` : i.message));
  return [missing.length ? `Needs ${missing.join(', ')}` : '', ...other].filter(Boolean).join('; ');
}
