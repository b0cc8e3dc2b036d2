// The failures of the shielded flows, with the texts of the API contract (spec section 7).
// Statuses the contract leaves open are chosen here and documented in the OpenAPI document.
import { BadGatewayError, BadRequestError, ConflictError, HttpError } from '../http/errors.js';

export class PrivacyNotInitializedError extends BadRequestError {
  constructor() {
    super('Privacy not initialized');
  }
}

export class InvalidAmountError extends BadRequestError {
  constructor() {
    super('Valid amount required');
  }
}

/** The bundler could not be reached (network error, timeout, no JSON-RPC answer). */
export class BundlerSubmissionFailedError extends BadGatewayError {
  constructor(reason?: string) {
    super('Bundler submission failed', reason ? { reason } : undefined);
  }
}

/** Whose ETH pays an operation's gas when it is not the business account: the business's relayer (relayed transfers). */
export type GasPayer = 'relayer';

/** The bundler answered and refused: gas estimation failed or the paymaster is exhausted. */
export class BundlerRejectionError extends BadGatewayError {
  constructor(reason: string, payer?: GasPayer) {
    super('Bundler rejection', { reason, ...(payer ? { payer } : {}) });
  }
}

export class InsufficientBalanceError extends BadRequestError {
  constructor(available: bigint, requested: bigint, hint?: string) {
    super('Insufficient shielded balance', { available: available.toString(), requested: requested.toString(), ...(hint ? { hint } : {}) });
  }
}

/**
 * Shielding more than the business account holds, with the network fee it pays (native ETH),
 * refused before any proving: `available` and `fee` say by how much.
 */
export class InsufficientPublicBalanceError extends BadRequestError {
  constructor(input: { token: string; available: bigint; requested: bigint; fee: bigint; feeAvailable?: bigint }) {
    super('Insufficient public balance', {
      token: input.token,
      available: input.available.toString(),
      requested: input.requested.toString(),
      fee: input.fee.toString(),
      ...(input.feeAvailable === undefined ? {} : { feeAvailable: input.feeAvailable.toString() }),
    });
  }
}

export class InvalidRootError extends ConflictError {
  constructor() {
    super('Invalid Merkle root', { hint: 'More than 100 insertions happened since the proof was built; prove again with a fresh root' });
  }
}

export class SpentNullifierError extends ConflictError {
  constructor(nullifiers: string[]) {
    super('Spent nullifier', { nullifiers });
  }
}

export class ProverTimeoutError extends HttpError {
  constructor(timeoutMs: number) {
    super(504, 'Prover timeout', { timeoutMs });
  }
}

export const WALLET_ERROR_DOCS = {
  insufficient: 'Insufficient shielded balance (400): not enough unspent notes of the token',
  insufficientPublic: 'Insufficient public balance (400): the business account holds less than the amount (and, for ETH, the network fee it pays) — checked before proving; `details` has `available`, `requested` and `fee` in base units',
  proverTimeout: 'Prover timeout (504): proving exceeded `proverTimeoutMs`; the worker was terminated',
  bundlerDown: 'Bundler submission failed (502): the bundler could not be reached',
  bundlerRejected: 'Bundler rejection (502): gas estimation failed or the paymaster is exhausted; `details.reason` has the bundler\'s reason, `details.payer` is `relayer` when the business\'s relayer pays the gas',
  notConfigured: 'Wallet infrastructure not configured (503): the chain has no valid configuration',
  invalidRoot: 'Invalid Merkle root (409): more than 100 insertions since the proof; prove again',
  spentNullifier: 'Spent nullifier (409): a nullifier of the bundle is already spent (double spend)',
} as const;

/** What every relay (this install's and the hosted one) refuses before looking at the chain: a deposit, or a bundle past its deadline. */
export function assertRelayable(bundle: { extAmount: string; deadline: string }, now: Date): void {
  if (BigInt(bundle.extAmount) > 0n) throw new BadRequestError('Deposits cannot be relayed: shield from the depositing account');
  if (BigInt(bundle.deadline) < BigInt(Math.floor(now.getTime() / 1000))) throw new BadRequestError('Bundle expired: prove again');
}

/**
 * The wallet's keys are here but sealed by another machine's key: its business was restored or
 * imported without the recovery passphrase, so nothing can open them on this install.
 */
export class WalletKeysUnavailableError extends ConflictError {
  constructor() {
    super("This wallet's keys did not come with it to this install (it was restored or imported without the recovery passphrase): it cannot spend or see its notes here. Restore or import the backup again with the passphrase");
  }
}
