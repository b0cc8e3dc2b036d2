// What relaying costs, so the relayer is repaid by every bundle and never runs dry. The pool pays
// the bundle's fee to the relayer's account in the same transaction that spends its gas, so a fee
// at least the UserOperation's maximum cost (gas limits × max fee per gas) leaves the relayer no
// poorer; quotes add a margin for the gas price moving before the bundle arrives.
import { loadChainClients, type ChainConfig } from '../wallet/index.js';
import { BadGatewayError, ConflictError } from '../http/errors.js';

/** Quotes charge the gas at this many percent of the current price. */
export const FEE_MARGIN_PERCENT = 120n;
/**
 * A UserOperation is sent at twice the node's fee estimate (viem's prepareUserOperation: bundlers
 * precheck fees strictly), so that is the price its gas limits may be charged at.
 */
const USER_OPERATION_FEE_BUFFER = 2n;

/** The max fee per gas a UserOperation sent now would carry. */
export async function currentGasPrice(chain: ChainConfig): Promise<bigint> {
  const { publicClientFor } = await loadChainClients();
  try {
    const fees = await publicClientFor(chain).estimateFeesPerGas();
    return fees.maxFeePerGas * USER_OPERATION_FEE_BUFFER;
  } catch (err) {
    throw new BadGatewayError('Chain RPC unreachable', { reason: (err as Error).message.split('\n')[0].slice(0, 200) });
  }
}

export function feeFor(gas: bigint, gasPrice: bigint): bigint {
  return (gas * gasPrice * FEE_MARGIN_PERCENT + 99n) / 100n;
}

export class FeeTooLowError extends ConflictError {
  constructor(fee: bigint, required: bigint) {
    super('Relay fee no longer covers gas', { fee: fee.toString(), required: required.toString(), hint: 'Gas costs more than when the quote was made: request a new quote and prove again' });
  }
}

/** Refuses a bundle whose fee is below what its UserOperation may cost now. */
export function assertFeeCovers(fee: bigint, maxCost: bigint): void {
  if (fee < maxCost) throw new FeeTooLowError(fee, maxCost);
}
