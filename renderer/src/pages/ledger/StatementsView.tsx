import { Money, currencyLabel } from '../../ui/money';
import { keepPreviousData } from '@tanstack/react-query';
import { client, unwrap, useEntityQuery } from '../../api';
import { EmptyState, ErrorBanner, Spinner, TextInput } from '../../ui/components';
import { useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import type { ProfitAndLoss } from './types';

type Section = ProfitAndLoss['currencies'][number]['revenue'];

/** Start (exclusive: the end of the day before) and end of the chosen days, UTC. */
const startParam = (date: string) => (date ? new Date(Date.parse(`${date}T00:00:00.000Z`) - 1).toISOString() : undefined);
const endParam = (date: string) => (date ? `${date}T23:59:59.999Z` : undefined);

/** Profit and loss for a period and the balance sheet as of a day, per currency. */
export function StatementsView() {
  usePageTitle('Statements');
  const [params, setParams] = useSearchState({ from: '', to: '' });
  const day = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : '');
  const from = day(params.from);
  const to = day(params.to);
  const pl = useEntityQuery(['ledger', 'profit-and-loss', from, to], () => unwrap(client.GET('/api/ledger/reports/profit-and-loss', { params: { query: { from: startParam(from), to: endParam(to) } } })), { placeholderData: keepPreviousData });
  const bs = useEntityQuery(['ledger', 'balance-sheet', to], () => unwrap(client.GET('/api/ledger/reports/balance-sheet', { params: { query: { asOf: endParam(to) } } })), { placeholderData: keepPreviousData });
  return (
    <div className="stack">
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div style={{ width: 200, maxWidth: '100%' }}>
          <TextInput label="From (UTC)" type="date" value={from} onChange={(e) => setParams({ from: e.target.value }, { replace: true })} />
        </div>
        <div style={{ width: 200, maxWidth: '100%' }}>
          <TextInput label="To (UTC)" type="date" value={to} onChange={(e) => setParams({ to: e.target.value }, { replace: true })} />
        </div>
        <span className="muted">The balance sheet is as of the end of “To” (today when empty). Currencies are never added together.</span>
      </div>
      <ErrorBanner error={pl.error?.message ?? bs.error?.message} onRetry={() => void Promise.all([pl.refetch(), bs.refetch()])} />
      {pl.isPending || bs.isPending ? (
        <Spinner />
      ) : !pl.data?.currencies.length && !bs.data?.currencies.length ? (
        <EmptyState icon="⚖" title="Nothing posted yet">
          Statements appear once events are posted.
        </EmptyState>
      ) : (
        <>
          <h2 style={{ margin: '8px 0 0' }}>Profit and loss</h2>
          {pl.data!.currencies.map((c) => (
            <StatementTable key={c.currency} label={`Profit and loss ${c.currency}`} currency={c.currency} sections={[['Revenue', c.revenue], ['Expenses', c.expenses]]} result={['Net income', c.netIncome]} />
          ))}
          <h2 style={{ margin: '8px 0 0' }}>Balance sheet</h2>
          {bs.data!.currencies.map((c) => (
            <StatementTable
              key={c.currency}
              label={`Balance sheet ${c.currency}`}
              currency={c.currency}
              sections={[
                ['Assets', c.assets],
                ['Liabilities', c.liabilities],
                ['Equity', { lines: [...c.equity.lines, { accountId: 'earnings', code: '', name: 'Current earnings (not yet closed)', amount: c.equity.currentEarnings }], total: c.equity.total }],
              ]}
              result={['Liabilities and equity', c.liabilitiesAndEquity]}
            />
          ))}
        </>
      )}
    </div>
  );
}

function StatementTable({ label, currency, sections, result }: { label: string; currency: string; sections: [string, Section][]; result: [string, string] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            <th style={{ width: 80 }}>Code</th>
            <th>Account ({currencyLabel(currency)})</th>
            <th style={{ textAlign: 'right' }}>Amount</th>
          </tr>
        </thead>
        {sections.map(([title, section]) => (
          <tbody key={title}>
            {section.lines.map((l) => (
              <tr key={l.accountId} data-account-code={l.code || undefined}>
                <td className="mono">{l.code}</td>
                <td>{l.name}</td>
                <td className="mono" style={{ textAlign: 'right' }}>
                  <Money amount={l.amount} currency={currency} showCurrency={false} />
                </td>
              </tr>
            ))}
            <tr data-total={title}>
              <td />
              <td>
                <strong>Total {title.toLowerCase()}</strong>
              </td>
              <td className="mono" style={{ textAlign: 'right' }}>
                <strong><Money amount={section.total} currency={currency} showCurrency={false} /></strong>
              </td>
            </tr>
          </tbody>
        ))}
        <tfoot>
          <tr data-total={result[0]}>
            <td />
            <td>
              <strong>{result[0]}</strong>
            </td>
            <td className="mono" style={{ textAlign: 'right' }}>
              <strong><Money amount={result[1]} currency={currency} showCurrency={false} /></strong>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
