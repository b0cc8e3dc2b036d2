import type { z } from 'zod';
import type { resyncResponse } from '../../../../server/wallet/schemas';
// Shapes of the /api/privacy responses the wallet page reads.
export interface ChainStatus {
  chain: string;
  configured: boolean;
  chainId: number | null;
  rpc: string | null;
  bundler: string | null;
  paymaster: string | null;
  pool: string | null;
  nativeSymbol: string | null;
  tokens: { address: string; symbol: string | null; decimals: number | null }[];
  accountAddress: string | null;
  relayerAddress: string | null;
  indexedBlock: string | null;
  leaves: number | null;
  problem: string | null;
  chainReset: boolean;
}

export interface PrivacyStatus {
  initialized: boolean;
  /** The keys are on another device of the entity: this one shows the wallet read-only. */
  heldElsewhere: boolean;
  /** The keys are here but sealed by another machine's key (restored or imported without the passphrase). */
  keysUnavailable: boolean;
  shieldedAddress: string | null;
  ownerAddress: string | null;
  defaultChain: string;
  chains: ChainStatus[];
}

export interface TokenBalance {
  token: string;
  symbol: string | null;
  decimals: number | null;
  amount: string;
  notes: number;
  pending: string;
  /** Notes the chain's tree does not hold (reset or reorganised chain): never spent. */
  unavailable: string;
  unavailableReason: string | null;
}

export type ResyncResponse = z.infer<typeof resyncResponse>;

export interface Activity {
  id: string;
  kind: 'shielded' | 'sent' | 'received' | 'unshielded';
  status: 'proved' | 'submitted' | 'confirmed' | 'failed';
  chain: string;
  token: string;
  amount: string;
  /** Paid to the relayer from the shielded funds, on top of the amount (base units). */
  fee?: string;
  counterparty: string | null;
  proofId: string | null;
  userOpHash: string | null;
  txHash: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export type TransferBundle = Record<string, unknown> & { success: true; proofId: string; chain: string };

/** Who would relay a transfer and for what fee (GET /api/privacy/relay-quote). */
export interface RelayChoice {
  /** `hosted`: the entity is linked and its hosted relay submits (fee from the shielded funds); `own`: this install's relayer pays the gas. */
  via: 'hosted' | 'own';
  chain: string;
  token: string;
  relayer: string;
  fee: string;
  deadline: string;
  expiresAt: string | null;
}

/** What the relay answers for a submitted bundle. */
export interface RelayAnswer {
  userOpHash: string;
  replayed?: boolean;
  via?: 'hosted' | 'own';
  jobId?: string;
  relayer?: string;
  fee?: string;
}

/** A hosted relay job's progress (GET /api/privacy/relay-jobs/{jobId}). */
export interface RelayJob {
  id: string;
  status: 'submitting' | 'submitted' | 'confirmed' | 'failed';
  fee: string;
  userOpHash: string | null;
  txHash: string | null;
  error: string | null;
}

export const NATIVE = '0x0000000000000000000000000000000000000000';
