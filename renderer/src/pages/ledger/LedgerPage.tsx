import { Navigate, NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../ui/components';
import { EventsView } from './EventsView';
import { TrialBalanceView } from './TrialBalanceView';
import { StatementsView } from './StatementsView';
import { AccountsView } from './AccountsView';
import { JournalView } from './JournalView';

const views = [
  { path: 'events', label: 'Events', element: <EventsView /> },
  { path: 'journal', label: 'Journal', element: <JournalView /> },
  { path: 'trial-balance', label: 'Trial balance', element: <TrialBalanceView /> },
  { path: 'statements', label: 'Statements', element: <StatementsView /> },
  { path: 'accounts', label: 'Accounts', element: <AccountsView /> },
];

export function LedgerPage() {
  return (
    <div>
      <PageHeader title="Ledger" subtitle="Business events, the posting engine and the double-entry books they produce." />
      <nav className="tabs" aria-label="Ledger">
        {views.map((v) => (
          <NavLink key={v.path} to={`/ledger/${v.path}`} className={({ isActive }) => `tab ${isActive ? 'tab-active' : ''}`}>
            {v.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        {views.map((v) => (
          <Route key={v.path} path={`${v.path}/*`} element={v.element} />
        ))}
        <Route path="*" element={<Navigate to="/ledger/events" replace />} />
      </Routes>
    </div>
  );
}
