import { keepPreviousData } from '@tanstack/react-query';
import { apiUrl, client, unwrap, useEntityQuery } from '../../api';
import { Button, EmptyState, ErrorBanner, Spinner } from '../../ui/components';
import { pageNumber, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { JournalLines } from './JournalLines';
import { useAccounts } from './queries';

const PAGE_SIZE = 20;

/** Journal entries a page at a time (the server pages; the page number lives in the URL). */
export function JournalView() {
  usePageTitle('Journal');
  const [params, setParams] = useSearchState({ account: '', page: '1' });
  const accountId = params.account;
  const page = pageNumber(params.page);
  const setPage = (next: (p: number) => number) => setParams({ page: next(page) });
  const accounts = useAccounts(true);
  const journal = useEntityQuery(['ledger', 'journal', accountId, page], () => unwrap(client.GET('/api/ledger/journal', { params: { query: { accountId: accountId || undefined, page, pageSize: PAGE_SIZE } } })), { placeholderData: keepPreviousData });
  const total = journal.data?.total ?? 0;
  return (
    <div className="stack">
      <div className="row">
        <label className="muted" htmlFor="ledger-journal-account">
          Account
        </label>
        <select id="ledger-journal-account" className="input" style={{ width: 300, maxWidth: '100%' }} value={accountId} onChange={(e) => setParams({ account: e.target.value, page: 1 })}>
          <option value="">All accounts</option>
          {accounts.data?.map((a) => (
            <option key={a.id} value={a.id}>
              {a.code} · {a.name}
            </option>
          ))}
        </select>
        {/* A plain link: the browser downloads with the session cookie; the entity goes in the query. */}
        <a className="btn btn-secondary" style={{ marginLeft: 'auto' }} href={apiUrl('/api/ledger/journal.csv', { query: { accountId } })} download>
          Export CSV
        </a>
      </div>
      <ErrorBanner error={journal.error?.message} onRetry={() => void journal.refetch()} />
      {journal.isPending ? (
        <Spinner />
      ) : total === 0 ? (
        <EmptyState icon="⚖" title="No journal entries" />
      ) : (
        journal.data!.entries.map((e) => <JournalLines key={e.id} entry={e} />)
      )}
      {total > PAGE_SIZE && (
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <Button disabled={page * PAGE_SIZE >= total} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </div>
      )}
    </div>
  );
}
