// Reads the pool's events through viem, rebuilds the Merkle tree exactly as the contract holds it,
// tracks spent nullifiers, and finds the notes a viewing key can open. A note counts only if it
// decrypts and re-hashes to the commitment the pool emitted (openNote).
import { hexToBytes, type Address, type Hex, type PublicClient } from 'viem';
import { shieldedPoolAbi } from './contract-abis.js';
import { openNote } from './encryption.js';
import type { ShieldedKeys, ViewingKeys } from './keys.js';
import { MerkleTree } from './merkle-tree.js';
import { computeNullifier, type Note, type OwnedNote } from './note.js';

export interface IndexedCommitment {
  commitment: bigint;
  index: number;
  encryptedNoteRecipient: Hex;
  encryptedNoteSender: Hex;
  blockNumber: bigint;
  transactionHash: Hex;
}

export interface FoundNote extends Note {
  commitment: bigint;
  leafIndex: number;
  blockNumber: bigint;
  transactionHash: Hex;
}

export interface IndexerOptions {
  client: PublicClient;
  chainId: bigint;
  pool: Address;
  fromBlock?: bigint;
  /** Blocks per eth_getLogs call (public RPCs cap the range). */
  batchSize?: bigint;
}

/** What a caller persists to resume indexing without rescanning from the deploy block. */
export interface IndexerSnapshot {
  nextBlock: string;
  commitments: { commitment: string; index: number; encryptedNoteRecipient: Hex; encryptedNoteSender: Hex; blockNumber: string; transactionHash: Hex }[];
  spentNullifiers: string[];
}

export class PoolIndexer {
  readonly tree = new MerkleTree();
  readonly commitments: IndexedCommitment[] = [];
  readonly spentNullifiers = new Set<bigint>();
  private readonly client: PublicClient;
  readonly chainId: bigint;
  readonly pool: Address;
  private readonly batchSize: bigint;
  private nextBlock: bigint;
  private pending: IndexedCommitment | null = null;

  constructor(options: IndexerOptions) {
    this.client = options.client;
    this.chainId = options.chainId;
    this.pool = options.pool;
    this.nextBlock = options.fromBlock ?? 0n;
    this.batchSize = options.batchSize ?? 2000n;
  }

  /** JSON-safe state to persist between runs. */
  snapshot(): IndexerSnapshot {
    // Both leaves of a pair come from one transaction, so a completed sync never leaves one pending.
    if (this.pending) throw new Error('Indexer is between the two leaves of a pair');
    return {
      nextBlock: String(this.nextBlock),
      commitments: this.commitments.map((c) => ({ ...c, commitment: String(c.commitment), blockNumber: String(c.blockNumber) })),
      spentNullifiers: [...this.spentNullifiers].map(String),
    };
  }

  static restore(options: Omit<IndexerOptions, 'fromBlock'>, snapshot: IndexerSnapshot): PoolIndexer {
    const indexer = new PoolIndexer({ ...options, fromBlock: BigInt(snapshot.nextBlock) });
    for (const c of snapshot.commitments) {
      indexer.addCommitment({ ...c, commitment: BigInt(c.commitment), blockNumber: BigInt(c.blockNumber) });
    }
    for (const n of snapshot.spentNullifiers) indexer.spentNullifiers.add(BigInt(n));
    return indexer;
  }

  /** The last block fully indexed. */
  get height(): bigint {
    return this.nextBlock - 1n;
  }

  async sync(): Promise<{ toBlock: bigint; newCommitments: number }> {
    // No cache: viem may hold a block number from before the transaction we are waiting to see.
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    const before = this.commitments.length;
    while (this.nextBlock <= head) {
      const toBlock = this.nextBlock + this.batchSize - 1n < head ? this.nextBlock + this.batchSize - 1n : head;
      await this.indexRange(this.nextBlock, toBlock);
      this.nextBlock = toBlock + 1n;
    }
    await this.checkRoot(head);
    return { toBlock: head, newCommitments: this.commitments.length - before };
  }

  private async indexRange(fromBlock: bigint, toBlock: bigint): Promise<void> {
    const [commitmentLogs, nullifierLogs] = await Promise.all([
      this.client.getContractEvents({ address: this.pool, abi: shieldedPoolAbi, eventName: 'NewCommitment', fromBlock, toBlock, strict: true }),
      this.client.getContractEvents({ address: this.pool, abi: shieldedPoolAbi, eventName: 'NewNullifier', fromBlock, toBlock, strict: true }),
    ]);
    for (const log of commitmentLogs) {
      this.addCommitment({
        commitment: log.args.commitment,
        index: Number(log.args.index),
        encryptedNoteRecipient: log.args.encryptedNoteRecipient,
        encryptedNoteSender: log.args.encryptedNoteSender,
        blockNumber: log.blockNumber,
        transactionHash: log.transactionHash,
      });
    }
    for (const log of nullifierLogs) this.spentNullifiers.add(log.args.nullifier);
  }

  private addCommitment(c: IndexedCommitment): void {
    const expected = this.commitments.length + (this.pending ? 1 : 0);
    if (c.index !== expected) throw new Error(`Pool event gap: expected leaf ${expected}, got ${c.index}`);
    if (!this.pending) {
      this.pending = c;
      return;
    }
    // The pool inserts a transaction's two outputs together: mirror that.
    this.tree.insertPair(this.pending.commitment, c.commitment);
    this.commitments.push(this.pending, c);
    this.pending = null;
  }

  /** Our tree must reproduce the contract's root, or every proof we build would be rejected. */
  private async checkRoot(blockNumber: bigint): Promise<void> {
    const onChain = await this.client.readContract({ address: this.pool, abi: shieldedPoolAbi, functionName: 'getLastRoot', blockNumber });
    if (onChain !== this.tree.root) throw new Error('Indexed Merkle root does not match the pool');
  }

  private open(c: IndexedCommitment, envelope: Hex, keys: ViewingKeys): FoundNote | null {
    const note = openNote(hexToBytes(envelope), keys.viewingPrivateKey, { commitment: c.commitment, chainId: this.chainId, pool: this.pool });
    if (!note) return null;
    return { ...note, commitment: c.commitment, leafIndex: c.index, blockNumber: c.blockNumber, transactionHash: c.transactionHash };
  }

  /** Notes owned by the key (received, change) and the copies of notes it sent to others. */
  scanNotes(keys: ViewingKeys): { owned: FoundNote[]; sent: FoundNote[] } {
    const owned: FoundNote[] = [];
    const sent: FoundNote[] = [];
    for (const c of this.commitments) {
      const mine = this.open(c, c.encryptedNoteRecipient, keys);
      if (mine && mine.pubkey === keys.pubkey) {
        if (mine.amount > 0n) owned.push(mine);
        continue;
      }
      const copy = this.open(c, c.encryptedNoteSender, keys);
      if (copy && copy.pubkey !== keys.pubkey && copy.amount > 0n) sent.push(copy);
    }
    return { owned, sent };
  }

  /** Owned notes whose nullifier the pool has not seen (needs the spending key). */
  unspentNotes(keys: ShieldedKeys, token?: bigint): OwnedNote[] {
    return this.scanNotes(keys)
      .owned.filter((n) => token === undefined || n.token === token)
      .map((n) => ({ ...n, nullifier: computeNullifier(keys.spendingKey, n.commitment, n.leafIndex) }))
      .filter((n) => !this.spentNullifiers.has(n.nullifier));
  }

  balance(keys: ShieldedKeys, token: bigint): bigint {
    return this.unspentNotes(keys, token).reduce((s, n) => s + n.amount, 0n);
  }
}
