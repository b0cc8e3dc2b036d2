import { Badge, Card, EmptyState } from '../../ui/components';
import { formatRelative } from '../../ui/hooks';
import { displayAmount, short, tokenLabel } from './format';
import type { Activity, TokenBalance } from './types';

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

export function HistoryCard({ items, tokens }: { items: Activity[]; tokens: TokenBalance[] }) {
  const info = (token: string) => tokens.find((t) => t.token.toLowerCase() === token.toLowerCase());
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
                <th>Type</th>
                <th>Amount</th>
                <th>Status</th>
                <th>Counterparty</th>
                <th>Transaction</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => {
                const t = info(a.token);
                const sign = a.kind === 'received' || a.kind === 'shielded' ? '+' : '−';
                return (
                  <tr key={a.id} data-activity-kind={a.kind} data-activity-status={a.status}>
                    <td>
                      <Badge tone={KIND[a.kind].tone}>{KIND[a.kind].label}</Badge>
                    </td>
                    <td className="mono">
                      {sign}
                      {displayAmount(a.amount, t?.decimals ?? null)} {t ? tokenLabel(t) : short(a.token)}
                    </td>
                    <td>
                      <Badge tone={STATUS[a.status].tone}>{STATUS[a.status].label}</Badge>
                      {a.error && <div className="field-error">{a.error}</div>}
                    </td>
                    <td className="mono muted" title={a.counterparty ?? undefined}>
                      {a.kind === 'received' ? 'private sender' : short(a.counterparty)}
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
