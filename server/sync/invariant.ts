/** An invariant of the sync engine: a failure is a bug, never bad input (that is validated first). */
export function invariant(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`Sync invariant violated: ${what}`);
}
