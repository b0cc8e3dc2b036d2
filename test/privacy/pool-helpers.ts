// Helpers for on-chain privacy tests: prove a planned transaction, submit it, and assert a
// specific custom-error revert through eth_call (no gas spent, state untouched).
import { BaseError, ContractFunctionRevertedError, type Address, type PublicClient } from 'viem';
import { shieldedPoolAbi, type ProvedTransaction } from '../../server/privacy/index.js';
import type { DevnetWallet } from '../helpers/devnet.js';

export { proveTransaction, type ProvedTransaction } from '../../server/privacy/index.js';

export async function sendTransact(wallet: DevnetWallet, client: PublicClient, pool: Address, tx: Pick<ProvedTransaction, 'args' | 'value'>) {
  const hash = await wallet.writeContract({ address: pool, abi: shieldedPoolAbi, functionName: 'transact', args: [tx.args.proof, tx.args.extData], value: tx.value, gas: 3_000_000n });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transact reverted in ${hash}`);
  return receipt;
}

/** Simulates transact and returns the custom error's name, or 'ok' when it would succeed. */
export async function simulateTransact(client: PublicClient, pool: Address, from: Address, tx: Pick<ProvedTransaction, 'args' | 'value'>): Promise<string> {
  try {
    await client.simulateContract({ address: pool, abi: shieldedPoolAbi, functionName: 'transact', args: [tx.args.proof, tx.args.extData], value: tx.value, account: from });
    return 'ok';
  } catch (err) {
    if (err instanceof BaseError) {
      const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName ?? reverted.shortMessage;
    }
    throw err;
  }
}

export function cloneTx<T extends Pick<ProvedTransaction, 'args' | 'value'>>(tx: T): T {
  return structuredClone(tx);
}
