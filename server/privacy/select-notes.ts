// Chooses at most two unspent notes (the circuit's inputs) that cover an amount, preferring the
// fewest and smallest notes so large notes stay whole and change stays small.
import type { OwnedNote } from './note.js';

export class InsufficientBalanceError extends Error {
  constructor(message = 'Insufficient shielded balance') {
    super(message);
    this.name = 'InsufficientBalanceError';
  }
}

export function selectNotes<T extends Pick<OwnedNote, 'amount'>>(notes: readonly T[], amount: bigint): T[] {
  if (amount <= 0n) return [];
  const candidates = notes.filter((n) => n.amount > 0n).sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
  const single = candidates.find((n) => n.amount >= amount);
  if (single) return [single];
  let best: [T, T] | null = null;
  // Two pointers over the sorted list: the pair with the smallest sum that still covers amount.
  for (let i = 0, j = candidates.length - 1; i < j; ) {
    const sum = candidates[i].amount + candidates[j].amount;
    if (sum >= amount) {
      if (!best || sum < best[0].amount + best[1].amount) best = [candidates[i], candidates[j]];
      j--;
    } else {
      i++;
    }
  }
  if (best) return best;
  const total = candidates.reduce((s, n) => s + n.amount, 0n);
  throw new InsufficientBalanceError(
    total >= amount ? 'Insufficient shielded balance in two notes; merge notes first' : 'Insufficient shielded balance',
  );
}
