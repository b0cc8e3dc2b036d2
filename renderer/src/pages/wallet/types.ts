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
}

export interface PrivacyStatus {
  initialized: boolean;
  /** The keys are on another device of the entity: this one shows the wallet read-only. */
  heldElsewhere: boolean;
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
}

export interface Activity {
  id: string;
  kind: 'shielded' | 'sent' | 'received' | 'unshielded';
  status: 'proved' | 'submitted' | 'confirmed' | 'failed';
  chain: string;
  token: string;
  amount: string;
  counterparty: string | null;
  proofId: string | null;
  userOpHash: string | null;
  txHash: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export type TransferBundle = Record<string, unknown> & { success: true; proofId: string; chain: string };

export const NATIVE = '0x0000000000000000000000000000000000000000';
