import { api } from '../../api';
import { Button, EmptyState, ErrorBanner, Spinner } from '../../ui/components';
import { pageNumber, useAsync, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { useSession } from '../../session';
import { JournalLines } from './JournalLines';
import type { Account, JournalEntry } from './types';

const PAGE_SIZE = 20;

export function JournalView() {
  const session = useSession();
  usePageTitle('Journal');
  const [params, setParams] = useSearchState({ account: '', page: '1' });
  const accountId = params.account;
  const page = pageNumber(params.page);
  const setPage = (next: (p: number) => number) => setParams({ page: next(page) });
  const accounts = useAsync(() => api.get<Account[]>('/api/ledger/accounts', { includeArchived: 'true' }));
  const journal = useAsync(() => api.get<{ entries: JournalEntry[]; total: number }>('/api/ledger/journal', { accountId, page, pageSize: PAGE_SIZE }), [accountId, page]);
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
        <a className="btn btn-secondary" style={{ marginLeft: 'auto' }} href={`/api/ledger/journal.csv?${new URLSearchParams({ ...(session.entity ? { entityId: session.entity.id } : {}), ...(accountId ? { accountId } : {}) })}`} download>
          Export CSV
        </a>
      </div>
      <ErrorBanner error={journal.error} onRetry={() => void journal.reload()} />
      {journal.loading && !journal.data ? (
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
