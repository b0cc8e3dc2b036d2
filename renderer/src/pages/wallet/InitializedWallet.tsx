import { useState } from 'react';
import { useSession } from '../../session';
import { Button, ErrorBanner, PageHeader, SelectInput } from '../../ui/components';
import { useSearchState } from '../../ui/hooks';
import { ReceiveCard } from './ReceiveCard';
import { AccountsCard } from './AccountsCard';
import { HistoryCard } from './HistoryCard';
import { UncategorisedCard } from './UncategorisedCard';
import { BalancesCard } from './BalancesCard';
import { ChainNotices } from './ChainNotices';
import { TransferModal, type TransferMode } from './TransferModal';
import { explainError } from './format';
import { refreshWallet, useBalances, useHistory, type PrivacyStatus } from './data';

/** The wallet of an entity whose keys are here: balances, accounts, history, and the transfers. */
export function InitializedWallet({ status }: { status: PrivacyStatus }) {
  const session = useSession();
  const configured = status.chains.filter((c) => c.configured);
  const defaultChain = configured.some((c) => c.chain === status.defaultChain) ? status.defaultChain : (configured[0]?.chain ?? status.defaultChain);
  // The chain shown is in the URL (?chain=), so reload and Back keep it; an unknown one falls back.
  const [params, setParams] = useSearchState({ chain: defaultChain });
  const chainName = status.chains.some((c) => c.chain === params.chain) ? params.chain : defaultChain;
  const chain = status.chains.find((c) => c.chain === chainName);
  const balances = useBalances(chainName, Boolean(chain?.configured));
  const history = useHistory(chainName);
  const [mode, setMode] = useState<TransferMode | null>(null);
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
            <SelectInput label="Chain" value={chainName} onChange={(e) => setParams({ chain: e.target.value })} options={configured.map((c) => ({ value: c.chain, label: `${c.chain} (${c.chainId})` }))} />
          </div>
        )}
        <ChainNotices chain={chain} chainName={chainName} chains={status.chains} />
        <ErrorBanner error={balances.error ? explainError(balances.error) : null} onRetry={() => void balances.refetch()} />
        {chain?.configured && <BalancesCard tokens={tokens} loading={!balances.data && !balances.error} />}
        {chain?.configured && <AccountsCard chain={chainName} />}
        {status.shieldedAddress && <ReceiveCard shieldedAddress={status.shieldedAddress} accountAddress={chain?.accountAddress ?? null} chain={chainName} configured={Boolean(chain?.configured)} />}
        <ErrorBanner error={history.error ? explainError(history.error) : null} onRetry={() => void history.refetch()} />
        {session.can('LEDGER.POST') && <UncategorisedCard />}
        <HistoryCard items={history.data?.items ?? []} tokens={tokens} />
      </div>
      {mode && chain?.configured && <TransferModal mode={mode} chain={chainName} tokens={tokens} onClose={() => setMode(null)} onDone={() => void refreshWallet()} />}
    </>
  );
}
