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

/** A block the index derived from, by number and hash: what a later sync checks is still the chain's. */
export interface SeenBlock {
  number: bigint;
  hash: Hex;
}

/** A rollback: the first block dropped, and the hashes of the dropped blocks the index had seen. */
export interface Reorganisation {
  from: bigint;
  dropped: Hex[];
  /** Commitments and nullifiers the dropped blocks had (the new branch may hold some of them again). */
  droppedCommitments: bigint[];
  droppedNullifiers: bigint[];
}

/** How many recent blocks' hashes are kept: a reorganisation deeper than this is treated as a reset. */
export const REORG_WINDOW = 128n;
const KEEP_LAST_BLOCKS = 8;

/**
 * The chain behind the same RPC is not the one indexed (another genesis, another chain id, or its
 * history changed deeper than the window): nothing derived from it can be trusted.
 */
export class ChainResetError extends Error {
  constructor(readonly reason: 'genesis' | 'history') {
    super(`Chain reset detected (${reason})`);
  }
}

/** The RPC serves another chain than the configured id: a configuration problem, not a reset. */
export class ChainIdMismatchError extends Error {
  constructor(readonly expected: bigint, readonly actual: bigint) {
    super(`The chain's RPC answers chain id ${actual}; the configuration says ${expected}`);
  }
}

/** What a caller persists to resume indexing without rescanning from the deploy block. */
export interface IndexerSnapshot {
  nextBlock: string;
  commitments: { commitment: string; index: number; encryptedNoteRecipient: Hex; encryptedNoteSender: Hex; blockNumber: string; transactionHash: Hex }[];
  spentNullifiers: string[];
  /** Block of each spent nullifier (same order), so a rollback can forget the later ones. Absent in older snapshots. */
  nullifierBlocks?: string[];
  /** Block 0's hash of the chain this was derived from. Absent in older snapshots. */
  genesisHash?: Hex;
  /** Recent blocks (oldest first) with their hashes, the last indexed block last. */
  blocks?: { number: string; hash: Hex }[];
}

export class PoolIndexer {
  tree = new MerkleTree();
  commitments: IndexedCommitment[] = [];
  readonly spentNullifiers = new Set<bigint>();
  /** Block number of each spent nullifier. */
  private readonly nullifierBlock = new Map<bigint, bigint>();
  genesisHash: Hex | null = null;
  /** Recent indexed blocks with their hashes, oldest first (at most REORG_WINDOW deep). */
  blocks: SeenBlock[] = [];
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
      nullifierBlocks: [...this.spentNullifiers].map((n) => String(this.nullifierBlock.get(n) ?? 0n)),
      ...(this.genesisHash ? { genesisHash: this.genesisHash } : {}),
      blocks: this.blocks.map((b) => ({ number: String(b.number), hash: b.hash })),
    };
  }

  static restore(options: Omit<IndexerOptions, 'fromBlock'>, snapshot: IndexerSnapshot): PoolIndexer {
    const indexer = new PoolIndexer({ ...options, fromBlock: BigInt(snapshot.nextBlock) });
    for (const c of snapshot.commitments) {
      indexer.addCommitment({ ...c, commitment: BigInt(c.commitment), blockNumber: BigInt(c.blockNumber) });
    }
    snapshot.spentNullifiers.forEach((n, i) => indexer.addNullifier(BigInt(n), BigInt(snapshot.nullifierBlocks?.[i] ?? 0)));
    indexer.genesisHash = snapshot.genesisHash ?? null;
    indexer.blocks = (snapshot.blocks ?? []).map((b) => ({ number: BigInt(b.number), hash: b.hash }));
    return indexer;
  }

  /** The last indexed block with its hash, when known. */
  get lastBlock(): SeenBlock | null {
    return this.blocks[this.blocks.length - 1] ?? null;
  }

  /** The last block fully indexed. */
  get height(): bigint {
    return this.nextBlock - 1n;
  }

  /**
   * Indexes up to the chain's head. First checks that the chain is still the one indexed: the same
   * id and genesis block, and the last indexed block's hash still the chain's at that height. A
   * different hash there is a reorganisation: the index rolls back to the newest block it saw that
   * the chain still has (`reorgFrom` is the first block dropped) and re-indexes from there.
   */
  async sync(): Promise<{ toBlock: bigint; newCommitments: number; reorg: Reorganisation | null }> {
    await this.checkIdentity();
    const reorg = await this.checkHistory();
    // No cache: viem may hold a block from before the transaction we are waiting to see.
    const headBlock = await this.client.getBlock({ blockTag: 'latest' });
    const head = headBlock.number;
    const before = this.commitments.length;
    while (this.nextBlock <= head) {
      const toBlock = this.nextBlock + this.batchSize - 1n < head ? this.nextBlock + this.batchSize - 1n : head;
      await this.indexRange(this.nextBlock, toBlock);
      this.nextBlock = toBlock + 1n;
    }
    if (head >= this.nextBlock - 1n && this.lastBlock?.number !== head) this.rememberBlock({ number: head, hash: headBlock.hash });
    await this.checkRoot(head);
    return { toBlock: head, newCommitments: this.commitments.length - before, reorg };
  }

  private async checkIdentity(): Promise<void> {
    const chainId = BigInt(await this.client.getChainId());
    if (chainId !== this.chainId) throw new ChainIdMismatchError(this.chainId, chainId);
    const genesis = await this.client.getBlock({ blockNumber: 0n });
    if (this.genesisHash === null) this.genesisHash = genesis.hash;
    else if (genesis.hash !== this.genesisHash) throw new ChainResetError('genesis');
  }

  /** The rollback made, or null when the last indexed block is still the chain's. */
  private async checkHistory(): Promise<Reorganisation | null> {
    const last = this.lastBlock;
    if (!last) return null;
    if ((await this.hashAt(last.number)) === last.hash) return null;
    for (let i = this.blocks.length - 2; i >= 0; i--) {
      const seen = this.blocks[i];
      if ((await this.hashAt(seen.number)) === seen.hash) {
        const dropped = this.blocks.slice(i + 1).map((b) => b.hash);
        return { from: seen.number + 1n, dropped, ...this.rollbackTo(seen.number) };
      }
    }
    throw new ChainResetError('history');
  }

  private async hashAt(number: bigint): Promise<Hex | null> {
    try {
      return (await this.client.getBlock({ blockNumber: number })).hash;
    } catch (err) {
      // A chain shorter than what was indexed has no block there.
      if ((err as Error).name === 'BlockNotFoundError') return null;
      throw err;
    }
  }

  private rememberBlock(block: SeenBlock): void {
    this.blocks.push(block);
    const oldest = block.number - REORG_WINDOW;
    // The last few are kept however old: after a long pause a shallow reorganisation still finds its fork point.
    this.blocks = this.blocks.filter((b, i) => b.number >= oldest || i >= this.blocks.length - KEEP_LAST_BLOCKS);
  }

  /** Forgets everything derived from blocks after `number` and rebuilds the tree from the rest. */
  private rollbackTo(number: bigint): { droppedCommitments: bigint[]; droppedNullifiers: bigint[] } {
    const droppedCommitments = this.commitments.filter((c) => c.blockNumber > number).map((c) => c.commitment);
    const droppedNullifiers: bigint[] = [];
    this.commitments = this.commitments.filter((c) => c.blockNumber <= number);
    this.tree = new MerkleTree(this.tree.depth, this.commitments.map((c) => c.commitment));
    for (const [n, block] of this.nullifierBlock) {
      if (block > number) {
        this.nullifierBlock.delete(n);
        this.spentNullifiers.delete(n);
        droppedNullifiers.push(n);
      }
    }
    this.blocks = this.blocks.filter((b) => b.number <= number);
    this.nextBlock = number + 1n;
    return { droppedCommitments, droppedNullifiers };
  }

  private addNullifier(nullifier: bigint, block: bigint): void {
    this.spentNullifiers.add(nullifier);
    this.nullifierBlock.set(nullifier, block);
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
    for (const log of nullifierLogs) this.addNullifier(log.args.nullifier, log.blockNumber);
    // Blocks that changed the pool are kept with their hash: a rollback can stop just before one.
    const changed = new Map<bigint, Hex>();
    for (const log of [...commitmentLogs, ...nullifierLogs]) changed.set(log.blockNumber, log.blockHash);
    for (const [number, hash] of [...changed].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
      if (this.lastBlock === null || number > this.lastBlock.number) this.rememberBlock({ number, hash });
    }
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
