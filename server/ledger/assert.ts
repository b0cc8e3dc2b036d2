/**
 * A broken ledger invariant. Thrown inside a transaction it aborts the whole write; it maps to
 * a 500, because it means a bug, never a bad request.
 */
export class LedgerInvariantError extends Error {
  override name = 'LedgerInvariantError';
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new LedgerInvariantError(`Ledger invariant violated: ${message}`);
}
