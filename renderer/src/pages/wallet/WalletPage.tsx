import { useEffect, useState } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import { Button, Card, ErrorBanner, Notice, PageHeader, SelectInput, Spinner } from '../../ui/components';
import { useAction, useAsync, useSearchState } from '../../ui/hooks';
import { ReceiveCard } from './ReceiveCard';
import { AccountsCard } from './AccountsCard';
import { ResyncNotice } from './ResyncNotice';
import { HistoryCard } from './HistoryCard';
import { UncategorisedCard } from './UncategorisedCard';
import { TransferModal, type TransferMode } from './TransferModal';
import { displayAmount, explainError, tokenLabel } from './format';
import type { Activity, PrivacyStatus, TokenBalance } from './types';
import './wallet.css';

export function WalletPage() {
  const session = useSession();
  const status = useAsync(() => api.get<PrivacyStatus>('/api/privacy/status'));
  const setup = useAction(async () => {
    await api.post('/api/privacy/initialize', {});
    await status.reload();
  });
  if (!session.can('PRIVACY.USE')) return <Notice kind="warning">Your role does not include the private wallet.</Notice>;
  if (!status.data) return status.error ? <ErrorBanner error={status.error} onRetry={() => void status.reload()} /> : <Spinner />;
  const s = status.data;
  if (s.heldElsewhere) return <HeldElsewhereWallet status={s} />;
  if (s.keysUnavailable) return <KeysUnavailableWallet status={s} />;
  if (!s.initialized) {
    return (
      <>
        <PageHeader title="Wallet" subtitle="Private (shielded) funds for this business" />
        <Card title="Set up the private wallet">
          <div className="stack" style={{ gap: 12 }}>
            <p style={{ margin: 0 }}>
              Bureau creates a spending key and a viewing key for <strong>{session.entity?.name}</strong>, and the key of a smart account that holds its public funds. The keys are sealed on this
              device and never leave it; transfers are proved here.
            </p>
            <ErrorBanner error={setup.error ? explainError(setup.error) : null} />
            <div>
              <Button variant="primary" busy={setup.pending} onClick={() => void setup.run()}>
                Set up private wallet
              </Button>
            </div>
          </div>
        </Card>
      </>
    );
  }
  return <InitializedWallet status={s} reloadStatus={status.reload} />;
}

/** The wallet of an entity whose keys are on another of its devices: its history, read-only. */
function HeldElsewhereWallet({ status }: { status: PrivacyStatus }) {
  const session = useSession();
  const history = useAsync(() => api.get<{ items: Activity[] }>('/api/privacy/history', { limit: 50 }));
  return (
    <>
      <PageHeader title="Wallet" subtitle="Private (shielded) funds for this business" />
      <Notice kind="info">
        The keys of {session.entity?.name}'s wallet are on another of its devices. Payments are made there; here you see its history, synced without transaction details.
      </Notice>
      <Card title="Wallet address">
        <code style={{ wordBreak: 'break-all' }}>{status.shieldedAddress}</code>
      </Card>
      {history.data ? <HistoryCard items={history.data.items} tokens={[]} /> : history.error ? <ErrorBanner error={history.error} onRetry={() => void history.reload()} /> : <Spinner />}
    </>
  );
}

/** A wallet restored or imported without the recovery passphrase: its keys cannot be opened here. */
function KeysUnavailableWallet({ status }: { status: PrivacyStatus }) {
  const session = useSession();
  const history = useAsync(() => api.get<{ items: Activity[] }>('/api/privacy/history', { limit: 50 }));
  return (
    <>
      <PageHeader title="Wallet" subtitle="Private (shielded) funds for this business" />
      <Notice kind="warning">
        <span data-wallet="keys-unavailable">
          The keys of {session.entity?.name}'s wallet did not come with it to this install: it was restored or imported without the recovery passphrase. It cannot spend or see its funds here; restore or import the backup again with the passphrase.
        </span>
      </Notice>
      <Card title="Wallet address">
        <code style={{ wordBreak: 'break-all' }}>{status.shieldedAddress}</code>
      </Card>
      {history.data ? <HistoryCard items={history.data.items} tokens={[]} /> : history.error ? <ErrorBanner error={history.error} onRetry={() => void history.reload()} /> : <Spinner />}
    </>
  );
}

function InitializedWallet({ status, reloadStatus }: { status: PrivacyStatus; reloadStatus: () => Promise<void> }) {
  const session = useSession();
  const configured = status.chains.filter((c) => c.configured);
  const defaultChain = configured.some((c) => c.chain === status.defaultChain) ? status.defaultChain : (configured[0]?.chain ?? status.defaultChain);
  // The chain shown is in the URL (?chain=), so reload and Back keep it; an unknown one falls back.
  const [params, setParams] = useSearchState({ chain: defaultChain });
  const chainName = status.chains.some((c) => c.chain === params.chain) ? params.chain : defaultChain;
  const setChainName = (chain: string) => setParams({ chain });
  const chain = status.chains.find((c) => c.chain === chainName);
  const balances = useAsync(() => (chain?.configured ? api.get<{ balances: TokenBalance[] }>('/api/privacy/balance', { chain: chainName }) : Promise.resolve({ balances: [] })), [chainName]);
  const history = useAsync(() => api.get<{ items: Activity[] }>('/api/privacy/history', { chain: chainName, limit: 50 }), [chainName]);
  const [mode, setMode] = useState<TransferMode | null>(null);
  const pending = history.data?.items.some((a) => a.status === 'submitted') ?? false;
  const { reload: reloadBalances } = balances;
  const { reload: reloadHistory } = history;

  // Statuses update live: poll quickly while something is in flight, slowly otherwise.
  useEffect(() => {
    const t = setInterval(
      () => {
        void reloadBalances().then(() => {
          void reloadHistory();
          void reloadStatus();
        });
      },
      pending ? 2000 : 8000,
    );
    return () => clearInterval(t);
  }, [pending, reloadBalances, reloadHistory, reloadStatus]);

  const tokens = balances.data?.balances ?? [];
  return (
    <>
      <PageHeader
        title="Wallet"
        subtitle={chain?.configured ? `Shielded funds on ${chain.chain} (chain ${chain.chainId})${chain.indexedBlock ? ` · indexed to block ${chain.indexedBlock}` : ''}` : 'Private (shielded) funds for this business'}
        actions={
          chain?.configured && (
            <>
              <Button onClick={() => setMode('shield')}>Shield</Button>
              <Button onClick={() => setMode('unshield')}>Unshield</Button>
              <Button variant="primary" onClick={() => setMode('send')}>
                Send privately
              </Button>
            </>
          )
        }
      />
      <div className="stack">
        {configured.length > 1 && (
          <div style={{ maxWidth: 260 }}>
            <SelectInput label="Chain" value={chainName} onChange={(e) => setChainName(e.target.value)} options={configured.map((c) => ({ value: c.chain, label: `${c.chain} (${c.chainId})` }))} />
          </div>
        )}
        {!chain?.configured && (
          <Notice kind="warning">
            <div className="stack" style={{ gap: 4 }}>
              <strong>Wallet infrastructure not configured</strong>
              <span>Add the chain “{chainName}” (RPC URL, bundler URL, EntryPoint and pool address) to the server’s chain configuration, then restart Bureau.</span>
              {status.chains
                .filter((c) => !c.configured && c.problem && c.chain !== chainName)
                .map((c) => (
                  <span key={c.chain} className="muted">
                    {c.chain}: {c.problem}
                  </span>
                ))}
            </div>
          </Notice>
        )}
        {chain?.configured && chain.chainReset && <ResyncNotice chain={chainName} onDone={async () => void (await Promise.all([reloadStatus(), reloadBalances(), reloadHistory()]))} />}
        {chain?.configured && chain.problem && !chain.chainReset && (
          <Notice kind="warning">
            The chain could not be read ({chain.problem}). Balances and history may be out of date; Bureau keeps retrying.
          </Notice>
        )}
        <ErrorBanner error={balances.error} onRetry={() => void balances.reload()} />
        {chain?.configured && (
          <Card title="Shielded balance">
            {!balances.data ? (
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
        )}
        {chain?.configured && <AccountsCard chain={chainName} onFunded={() => void reloadStatus()} />}
        {status.shieldedAddress && <ReceiveCard shieldedAddress={status.shieldedAddress} accountAddress={chain?.accountAddress ?? null} chain={chainName} configured={Boolean(chain?.configured)} />}
        <ErrorBanner error={history.error} onRetry={() => void history.reload()} />
        {session.can('LEDGER.POST') && <UncategorisedCard />}
        <HistoryCard items={history.data?.items ?? []} tokens={tokens} />
      </div>
      {mode && chain?.configured && (
        <TransferModal
          mode={mode}
          chain={chainName}
          tokens={tokens}
          onClose={() => setMode(null)}
          onDone={() => {
            void reloadHistory();
            void reloadBalances();
            void reloadStatus();
          }}
        />
      )}
    </>
  );
}
