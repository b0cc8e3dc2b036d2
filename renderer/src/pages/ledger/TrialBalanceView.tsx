import { Money, currencyLabel } from '../../ui/money';
import { keepPreviousData } from '@tanstack/react-query';
import { client, unwrap, useEntityQuery } from '../../api';
import { EmptyState, ErrorBanner, Spinner, TextInput } from '../../ui/components';
import { useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';

/** End of the chosen day (UTC), or now. */
const asOfParam = (date: string) => (date ? `${date}T23:59:59.999Z` : undefined);

export function TrialBalanceView() {
  usePageTitle('Trial balance');
  const [params, setParams] = useSearchState({ asOf: '' });
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.asOf) ? params.asOf : '';
  const setDate = (asOf: string) => setParams({ asOf }, { replace: true });
  const tb = useEntityQuery(['ledger', 'trial-balance', date], () => unwrap(client.GET('/api/ledger/trial-balance', { params: { query: { asOf: asOfParam(date) } } })), { placeholderData: keepPreviousData });
  const currencies = tb.data?.totals.map((t) => t.currency) ?? [];
  return (
    <div className="stack">
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div style={{ width: 220, maxWidth: '100%' }}>
          <TextInput label="As of (end of day, UTC)" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        {tb.data && <span className="muted">Totals per currency always balance: debits equal credits.</span>}
      </div>
      <ErrorBanner error={tb.error?.message} onRetry={() => void tb.refetch()} />
      {tb.isPending ? (
        <Spinner />
      ) : !tb.data || tb.data.rows.length === 0 ? (
        <EmptyState icon="⚖" title="Nothing posted yet">
          Posted events appear here by account and currency.
        </EmptyState>
      ) : (
        currencies.map((currency) => {
          const total = tb.data!.totals.find((t) => t.currency === currency)!;
          return (
            <div className="table-wrap" key={currency}>
              <table className="table" aria-label={`Trial balance ${currency}`}>
                <thead>
                  <tr>
                    <th style={{ width: 80 }}>Code</th>
                    <th>Account ({currencyLabel(currency)})</th>
                    <th>Type</th>
                    <th style={{ textAlign: 'right' }}>Debit</th>
                    <th style={{ textAlign: 'right' }}>Credit</th>
                    <th style={{ textAlign: 'right' }}>Balance</th>
                  </tr>
                </thead>
                <tbody>
                  {tb.data!.rows
                    .filter((r) => r.currency === currency)
                    .map((r) => (
                      <tr key={`${r.accountId}-${r.currency}`} data-account-code={r.code}>
                        <td className="mono">{r.code}</td>
                        <td>{r.name}</td>
                        <td className="muted">{r.type}</td>
                        <td className="mono" style={{ textAlign: 'right' }}>
                          <Money amount={r.debit} currency={currency} showCurrency={false} />
                        </td>
                        <td className="mono" style={{ textAlign: 'right' }}>
                          <Money amount={r.credit} currency={currency} showCurrency={false} />
                        </td>
                        <td className="mono" style={{ textAlign: 'right' }}>
                          <Money amount={r.balance} currency={currency} showCurrency={false} />
                        </td>
                      </tr>
                    ))}
                  <tr data-total={currency}>
                    <td />
                    <td>
                      <strong>Total</strong>
                    </td>
                    <td />
                    <td className="mono" style={{ textAlign: 'right' }}>
                      <strong><Money amount={total.debit} currency={currency} showCurrency={false} /></strong>
                    </td>
                    <td className="mono" style={{ textAlign: 'right' }}>
                      <strong><Money amount={total.credit} currency={currency} showCurrency={false} /></strong>
                    </td>
                    <td className="mono" style={{ textAlign: 'right' }}>
                      <strong><Money amount={total.balance} currency={currency} showCurrency={false} /></strong>
                    </td>
                  </tr>
                </tbody>
              </table>
            </div>
          );
        })
      )}
    </div>
  );
}
