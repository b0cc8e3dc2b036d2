// Incremental Poseidon Merkle tree mirroring ShieldedPool's: empty leaves are 0, level i's empty
// subtree is zeros[i] = H(zeros[i-1], zeros[i-1]), leaves are appended two at a time (one
// transaction's two outputs), and each pair insertion pushes one root into a ring of the last
// ROOT_HISTORY_SIZE roots.
import { hashPair } from './hash.js';

export const TREE_DEPTH = 20;
export const ROOT_HISTORY_SIZE = 100;

const zeroCache = new Map<number, bigint[]>();

export function zeroValues(depth: number = TREE_DEPTH): bigint[] {
  const cached = zeroCache.get(depth);
  if (cached) return cached;
  const zeros = [0n];
  for (let i = 1; i <= depth; i++) zeros.push(hashPair(zeros[i - 1], zeros[i - 1]));
  zeroCache.set(depth, zeros);
  return zeros;
}

export interface MerklePath {
  leafIndex: number;
  pathElements: bigint[];
  root: bigint;
}

export class MerkleTree {
  readonly depth: number;
  private readonly zeros: bigint[];
  /** layers[0] are the leaves; layers[i][j] the node j at height i. */
  private readonly layers: bigint[][];
  /** Every root so far, the empty tree's first (the contract starts its ring with it too). */
  private readonly roots: bigint[];

  constructor(depth: number = TREE_DEPTH, leaves: bigint[] = []) {
    this.depth = depth;
    this.zeros = zeroValues(depth);
    this.layers = Array.from({ length: depth + 1 }, () => []);
    this.roots = [this.zeros[depth]];
    for (let i = 0; i + 1 < leaves.length; i += 2) this.insertPair(leaves[i], leaves[i + 1]);
    if (leaves.length % 2 === 1) throw new Error('Leaves are inserted in pairs');
  }

  get size(): number {
    return this.layers[0].length;
  }

  get root(): bigint {
    return this.roots[this.roots.length - 1];
  }

  leaves(): readonly bigint[] {
    return this.layers[0];
  }

  insertPair(left: bigint, right: bigint): bigint {
    if (this.size + 2 > 2 ** this.depth) throw new Error('Merkle tree is full');
    this.layers[0].push(left, right);
    let index = this.size - 2;
    for (let level = 1; level <= this.depth; level++) {
      index >>= 1;
      const l = this.nodeAt(level - 1, index * 2);
      const r = this.nodeAt(level - 1, index * 2 + 1);
      this.layers[level][index] = hashPair(l, r);
    }
    const root = this.layers[this.depth][0];
    this.roots.push(root);
    return root;
  }

  /** The contract's rule: a root is known if it is one of the last ROOT_HISTORY_SIZE roots. */
  isKnownRoot(root: bigint): boolean {
    if (root === 0n) return false;
    return this.roots.slice(-ROOT_HISTORY_SIZE).includes(root);
  }

  indexOf(commitment: bigint): number {
    return this.layers[0].indexOf(commitment);
  }

  path(leafIndex: number): MerklePath {
    if (leafIndex < 0 || leafIndex >= this.size) throw new Error(`Leaf ${leafIndex} is not in the tree`);
    const pathElements: bigint[] = [];
    let index = leafIndex;
    for (let level = 0; level < this.depth; level++) {
      pathElements.push(this.nodeAt(level, index ^ 1));
      index >>= 1;
    }
    return { leafIndex, pathElements, root: this.root };
  }

  private nodeAt(level: number, index: number): bigint {
    return this.layers[level][index] ?? this.zeros[level];
  }
}
