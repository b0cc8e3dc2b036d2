import { useState } from 'react';
import { client, invalidateEntity, unwrap } from '../../api';
import { useSession } from '../../session';
import { Badge, Button, Card, ErrorBanner, Modal, SelectInput, Spinner, TextInput } from '../../ui/components';
import { useAction, useSearchState } from '../../ui/hooks';
import { usePageTitle } from '../../ui/title';
import { ApprovalPolicyCard } from './ApprovalPolicyCard';
import { useAccounts } from './queries';
import type { Account } from './types';

const TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;

export function AccountsView() {
  const session = useSession();
  const canAdmin = session.can('LEDGER.APPROVE');
  usePageTitle('Accounts');
  const [params, setParams] = useSearchState({ archived: '' });
  const showArchived = params.archived === 'shown';
  const setShowArchived = (shown: boolean) => setParams({ archived: shown ? 'shown' : '' });
  const [adding, setAdding] = useState(false);
  const accounts = useAccounts(showArchived);
  const archive = useAction(async (a: Account) => {
    await unwrap(client.PATCH('/api/ledger/accounts/{accountId}', { params: { path: { accountId: a.id } }, body: { archived: !a.archived } }));
    await invalidateEntity('ledger', 'accounts');
  });
  return (
    <div className="stack">
      <Card
        title="Chart of accounts"
        actions={
          <>
            <label className="checkbox">
              <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived
            </label>
            {canAdmin && (
              <Button variant="primary" onClick={() => setAdding(true)}>
                Add account
              </Button>
            )}
          </>
        }
      >
        <ErrorBanner error={accounts.error?.message ?? archive.error} />
        {accounts.isPending ? (
          <Spinner />
        ) : (
          <table className="table" aria-label="Accounts">
            <thead>
              <tr>
                <th style={{ width: 80 }}>Code</th>
                <th>Name</th>
                <th>Type</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {accounts.data?.map((a) => (
                <tr key={a.id} data-account-code={a.code}>
                  <td className="mono">{a.code}</td>
                  <td>
                    {a.name} {a.archived && <Badge>archived</Badge>}
                    {a.description && <div className="muted" style={{ fontSize: 12 }}>{a.description}</div>}
                  </td>
                  <td className="muted">{a.type}</td>
                  <td style={{ textAlign: 'right' }}>
                    {a.system ? (
                      <Badge tone="blue">built-in</Badge>
                    ) : (
                      canAdmin && (
                        <Button variant="ghost" onClick={() => void archive.run(a)}>
                          {a.archived ? 'Restore' : 'Archive'}
                        </Button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <ApprovalPolicyCard />
      {adding && <NewAccountModal onClose={() => setAdding(false)} onCreated={() => (setAdding(false), void invalidateEntity('ledger', 'accounts'))} />}
    </div>
  );
}

function NewAccountModal({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState<(typeof TYPES)[number]>('expense');
  const submit = useAction(async () => {
    await unwrap(client.POST('/api/ledger/accounts', { body: { code, name, type } }));
    onCreated();
  });
  return (
    <Modal
      title="Add account"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={submit.pending} disabled={!code || !name} onClick={() => void submit.run()}>
            Add
          </Button>
        </>
      }
    >
      <div className="form">
        <ErrorBanner error={submit.error} />
        <TextInput label="Code" value={code} onChange={(e) => setCode(e.target.value)} hint="Unique in this chart, e.g. 6450" />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        <SelectInput label="Type" value={type} onChange={(e) => setType(e.target.value as (typeof TYPES)[number])} options={TYPES.map((t) => ({ value: t, label: t }))} />
      </div>
    </Modal>
  );
}
