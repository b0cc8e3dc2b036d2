import { Card, Spinner } from '../../ui/components';
import { displayAmount, tokenLabel } from './format';
import type { TokenBalance } from './data';

/** The shielded balance per token: spendable, pending, and what the chain's tree does not hold. */
export function BalancesCard({ tokens, loading }: { tokens: TokenBalance[]; loading: boolean }) {
  return (
    <Card title="Shielded balance">
      {loading ? (
        <Spinner />
      ) : (
        <div className="wallet-balances">
          {tokens.map((t) => (
            <div key={t.token} className="wallet-balance" data-token={tokenLabel(t)}>
              <div className="wallet-balance-amount" aria-label={`${tokenLabel(t)} balance`}>
                {displayAmount(t.amount, t.decimals)}
              </div>
              <div className="wallet-balance-symbol">{tokenLabel(t)}</div>
              <div className="muted">
                {t.notes} {t.notes === 1 ? 'note' : 'notes'}
                {t.pending !== '0' && ` · ${displayAmount(t.pending, t.decimals)} pending`}
                {t.unavailable !== '0' && ` · ${displayAmount(t.unavailable, t.decimals)} unavailable: ${t.unavailableReason ?? ''}`}
              </div>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
