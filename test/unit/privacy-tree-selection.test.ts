import { describe, expect, it } from 'vitest';
import { InsufficientBalanceError, MerkleTree, ROOT_HISTORY_SIZE, selectNotes, zeroValues } from '../../server/privacy/index.js';
import { hashPair } from '../../server/privacy/hash.js';

function rootFromPath(leaf: bigint, index: number, path: bigint[]): bigint {
  let node = leaf;
  for (const sibling of path) {
    node = index % 2 === 0 ? hashPair(node, sibling) : hashPair(sibling, node);
    index >>= 1;
  }
  return node;
}

describe('Merkle tree mirror', () => {
  it('starts at the empty-tree root and proves inclusion of every leaf', () => {
    const tree = new MerkleTree(20);
    expect(tree.root).toBe(zeroValues(20)[20]);
    const leaves = Array.from({ length: 10 }, (_, i) => BigInt(1000 + i));
    for (let i = 0; i < leaves.length; i += 2) tree.insertPair(leaves[i], leaves[i + 1]);
    for (let i = 0; i < leaves.length; i++) {
      const { pathElements, root } = tree.path(i);
      expect(rootFromPath(leaves[i], i, pathElements)).toBe(root);
    }
    expect(rootFromPath(leaves[3], 2, tree.path(3).pathElements)).not.toBe(tree.root);
  });

  it('matches a tree rebuilt from scratch (incremental = full recomputation)', () => {
    const tree = new MerkleTree(4);
    const leaves = [1n, 2n, 3n, 4n, 5n, 6n];
    for (let i = 0; i < leaves.length; i += 2) tree.insertPair(leaves[i], leaves[i + 1]);
    const zeros = zeroValues(4);
    let level = [...leaves];
    for (let h = 0; h < 4; h++) {
      const next: bigint[] = [];
      for (let i = 0; i < Math.max(level.length, 1); i += 2) next.push(hashPair(level[i] ?? zeros[h], level[i + 1] ?? zeros[h]));
      level = next;
    }
    expect(tree.root).toBe(level[0]);
  });

  it('knows the last 100 roots and never root 0', () => {
    const tree = new MerkleTree(8);
    const first = tree.root;
    for (let i = 0; i < ROOT_HISTORY_SIZE - 1; i++) tree.insertPair(BigInt(i * 2 + 1), BigInt(i * 2 + 2));
    expect(tree.isKnownRoot(first)).toBe(true);
    tree.insertPair(7777n, 8888n);
    expect(tree.isKnownRoot(first)).toBe(false);
    expect(tree.isKnownRoot(0n)).toBe(false);
  });
});

describe('note selection', () => {
  const notes = [5n, 20n, 7n, 100n, 1n].map((amount) => ({ amount }));
  it('prefers the smallest single note that covers the amount', () => {
    expect(selectNotes(notes, 6n).map((n) => n.amount)).toEqual([7n]);
    expect(selectNotes(notes, 100n).map((n) => n.amount)).toEqual([100n]);
  });
  it('falls back to the cheapest covering pair', () => {
    expect(selectNotes(notes.filter((n) => n.amount !== 100n), 25n).map((n) => n.amount).sort()).toEqual([20n, 5n].sort());
  });
  it('reports insufficient balance, and fragmentation separately', () => {
    expect(() => selectNotes(notes, 1000n)).toThrow(InsufficientBalanceError);
    expect(() => selectNotes([{ amount: 3n }, { amount: 3n }, { amount: 3n }], 8n)).toThrow(/merge notes/);
  });
});
