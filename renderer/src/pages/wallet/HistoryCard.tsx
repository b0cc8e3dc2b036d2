import { Badge, Button, Card, EmptyState } from '../../ui/components';
import { formatRelative, useAction } from '../../ui/hooks';
import { displayAmount, explainError, explainStoredError, short, tokenInfo } from './format';
import { refreshWallet, walletCalls, type Activity, type TokenBalance } from './data';

const KIND: Record<Activity['kind'], { label: string; tone: 'blue' | 'violet' | 'green' | 'amber' }> = {
  shielded: { label: 'Shielded', tone: 'blue' },
  sent: { label: 'Sent', tone: 'violet' },
  received: { label: 'Received', tone: 'green' },
  unshielded: { label: 'Unshielded', tone: 'amber' },
};

const STATUS: Record<Activity['status'], { label: string; tone: 'neutral' | 'amber' | 'green' | 'red' }> = {
  proved: { label: 'Proved', tone: 'neutral' },
  submitted: { label: 'Pending', tone: 'amber' },
  confirmed: { label: 'Confirmed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

/**
 * A send or unshield whose relay failed: Try again relays the same proof while it can still land,
 * or proves it again (the server decides).
 */
function TryAgain({ activity }: { activity: Activity }) {
  const retry = useAction(async () => {
    await walletCalls.retry(activity.id);
    await refreshWallet();
  });
  return (
    <div className="stack" style={{ gap: 4, marginTop: 4 }}>
      {activity.status === 'proved' && <div className="field-error">Not sent{activity.relayError ? `: ${explainStoredError(activity.relayError)}` : ' yet'}.</div>}
      <div>
        <Button busy={retry.pending} onClick={() => void retry.run()}>
          Try again
        </Button>
      </div>
      {retry.error && <div className="field-error">{explainError(retry.error)}</div>}
    </div>
  );
}

/** One line a person reads: what moved, how much, and to or from whom. */
function sentence(a: Activity, amount: string): string {
  switch (a.kind) {
    case 'shielded':
      return `Shielded ${amount} from the business account into the private pool`;
    case 'sent':
      return a.counterparty ? `Sent ${amount} privately to ${short(a.counterparty, 12, 6)}` : `Sent ${amount} privately`;
    case 'received':
      return `Received ${amount} privately (the sender stays private)`;
    case 'unshielded':
      return a.counterparty ? `Unshielded ${amount} to ${short(a.counterparty, 10, 6)}` : `Unshielded ${amount}`;
  }
}

export function HistoryCard({ items, tokens }: { items: Activity[]; tokens: TokenBalance[] }) {
  return (
    <Card title="History">
      {items.length === 0 ? (
        <EmptyState icon="◈" title="No shielded activity yet">
          Shield funds or share your shielded address to receive a private transfer.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Shielded history">
            <thead>
              <tr>
                <th>What happened</th>
                <th>Status</th>
                <th>Transaction</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => {
                const t = tokenInfo(tokens, a.token);
                return (
                  <tr key={a.id} data-activity-kind={a.kind} data-activity-status={a.status}>
                    <td>
                      <Badge tone={KIND[a.kind].tone}>{KIND[a.kind].label}</Badge> <span data-activity-sentence>{sentence(a, `${displayAmount(a.amount, t.decimals)} ${t.label}`)}</span>
                      {a.fee && a.fee !== '0' && <span className="muted"> · relay fee {displayAmount(a.fee, t.decimals)} {t.label}</span>}
                    </td>
                    <td>
                      <Badge tone={STATUS[a.status].tone}>{STATUS[a.status].label}</Badge>
                      {a.error && <div className="field-error">{explainStoredError(a.error)}</div>}
                      {a.canRetry && <TryAgain activity={a} />}
                    </td>
                    <td className="mono muted" title={a.txHash ?? a.userOpHash ?? undefined}>
                      {short(a.txHash ?? a.userOpHash)}
                    </td>
                    <td className="muted">{formatRelative(a.createdAt)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
