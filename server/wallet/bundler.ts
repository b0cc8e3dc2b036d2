// Sending UserOperations: the bundler's failures become the contract's errors. Unreachable
// (network, timeout) → 502 `Bundler submission failed`; an answer that refuses the operation
// (gas estimation reverted, paymaster exhausted, …) → 502 `Bundler rejection` with its reason.
import { randomBytes } from 'node:crypto';
import { BaseError, HttpRequestError, TimeoutError, bytesToHex, decodeErrorResult, type Address, type Hex } from 'viem';
import type { SmartAccount } from 'viem/account-abstraction';
import type { ChainConfig } from './chains.js';
import { bundlerClientFor } from './clients.js';
import { BundlerRejectionError, BundlerSubmissionFailedError } from './errors.js';
import { shieldedPoolAbi } from '../privacy/index.js';

export interface Call {
  to: Address;
  data: Hex;
  value?: bigint;
}

function isUnreachable(err: unknown): boolean {
  if (!(err instanceof BaseError)) return true;
  return Boolean(err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError));
}

/** The most useful line of a bundler error: a decoded pool error name when there is one. */
export function rejectionReason(err: unknown): string {
  if (!(err instanceof BaseError)) return String(err);
  const data = /0x[0-9a-fA-F]{8,}/.exec(err.message)?.[0];
  if (data) {
    try {
      return `ShieldedPool.${decodeErrorResult({ abi: shieldedPoolAbi, data: data as Hex }).errorName}`;
    } catch {
      // not a pool error: fall through to the bundler's message
    }
  }
  const details = (err as BaseError & { details?: string }).details;
  return (details || err.shortMessage || err.message).split('\n')[0].slice(0, 300);
}

/** Fails fast with 502 when the bundler does not answer, before any proving work is spent. */
export async function pingBundler(chain: ChainConfig): Promise<void> {
  try {
    const res = await fetch(chain.bundlerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { result?: unknown };
    if (!Array.isArray(body.result)) throw new Error(`unexpected answer (HTTP ${res.status})`);
  } catch (err) {
    throw new BundlerSubmissionFailedError((err as Error).message.split('\n')[0]);
  }
}

/** Sends one UserOperation with `calls` from `account`; returns its hash. */
export async function sendCalls(chain: ChainConfig, account: SmartAccount, calls: Call[]): Promise<Hex> {
  const bundler = bundlerClientFor(chain, account);
  try {
    // A fresh 192-bit nonce key per operation (ERC-4337 2D nonces): concurrent operations of one
    // account (the relayer's above all) never race for the same sequence number.
    const nonce = await account.getNonce({ key: BigInt(bytesToHex(randomBytes(24))) });
    return await bundler.sendUserOperation({ account, nonce, calls: calls.map((c) => ({ to: c.to, data: c.data, value: c.value ?? 0n })) });
  } catch (err) {
    if (isUnreachable(err)) throw new BundlerSubmissionFailedError(err instanceof BaseError ? err.shortMessage : String(err));
    throw new BundlerRejectionError(rejectionReason(err));
  }
}

/** A UserOperation simulated by the bundler (its gas estimate) and not yet signed or sent. */
export interface PreparedOperation {
  account: SmartAccount;
  calls: Call[];
  nonce: bigint;
  gas: { callGasLimit: bigint; verificationGasLimit: bigint; preVerificationGas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  /** The most it can cost its account: every gas limit at the max fee per gas (wei). */
  maxCost: bigint;
}

/**
 * Asks the bundler to simulate `calls` from `account` (eth_estimateUserOperationGas): a call that
 * would revert is refused here (`Bundler rejection` with the pool's error), before any gas is spent.
 */
export async function prepareCalls(chain: ChainConfig, account: SmartAccount, calls: Call[]): Promise<PreparedOperation> {
  const bundler = bundlerClientFor(chain, account);
  try {
    const nonce = await account.getNonce({ key: BigInt(bytesToHex(randomBytes(24))) });
    const op = await bundler.prepareUserOperation({ account, nonce, calls: calls.map((c) => ({ to: c.to, data: c.data, value: c.value ?? 0n })) });
    const gas = { callGasLimit: op.callGasLimit, verificationGasLimit: op.verificationGasLimit, preVerificationGas: op.preVerificationGas, maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas };
    const { paymasterVerificationGasLimit, paymasterPostOpGasLimit } = op as { paymasterVerificationGasLimit?: bigint; paymasterPostOpGasLimit?: bigint };
    const paymasterGas = (paymasterVerificationGasLimit ?? 0n) + (paymasterPostOpGasLimit ?? 0n);
    const maxCost = (gas.callGasLimit + gas.verificationGasLimit + gas.preVerificationGas + paymasterGas) * gas.maxFeePerGas;
    return { account, calls, nonce, gas, maxCost };
  } catch (err) {
    if (isUnreachable(err)) throw new BundlerSubmissionFailedError(err instanceof BaseError ? err.shortMessage : String(err));
    throw new BundlerRejectionError(rejectionReason(err));
  }
}

/** Signs and sends a prepared UserOperation with the gas the bundler estimated; returns its hash. */
export async function sendPrepared(chain: ChainConfig, op: PreparedOperation): Promise<Hex> {
  const bundler = bundlerClientFor(chain, op.account);
  try {
    return await bundler.sendUserOperation({ account: op.account, nonce: op.nonce, calls: op.calls.map((c) => ({ to: c.to, data: c.data, value: c.value ?? 0n })), ...op.gas });
  } catch (err) {
    if (isUnreachable(err)) throw new BundlerSubmissionFailedError(err instanceof BaseError ? err.shortMessage : String(err));
    throw new BundlerRejectionError(rejectionReason(err));
  }
}

export interface UserOpOutcome {
  success: boolean;
  txHash: Hex;
  reason: string | null;
  /** What the operation cost its account (wei). */
  gasCost: bigint;
}

/** The receipt of a submitted UserOperation, or null while it is not yet included. */
export async function userOpOutcome(chain: ChainConfig, hash: Hex): Promise<UserOpOutcome | null> {
  const bundler = bundlerClientFor(chain);
  try {
    const receipt = await bundler.getUserOperationReceipt({ hash });
    return { success: receipt.success, txHash: receipt.receipt.transactionHash, reason: receipt.success ? null : (receipt.reason ?? 'reverted'), gasCost: receipt.actualGasCost };
  } catch {
    return null;
  }
}
