// What is wrong with the chain, in words, with the action that helps: not configured, reset
// (Resync), or its node or bundler not answering (what that stops, and Retry). Outage banners go
// by themselves when the chain answers again.
import { Button, Notice } from '../../ui/components';
import { ResyncNotice } from './ResyncNotice';
import { refreshWallet, useChainHealth, type ChainStatus } from './data';

function NotConfigured({ chainName, chains }: { chainName: string; chains: ChainStatus[] }) {
  return (
    <Notice kind="warning">
      <div className="stack" style={{ gap: 4 }}>
        <strong>Wallet infrastructure not configured</strong>
        <span>Add the chain “{chainName}” (RPC URL, bundler URL, EntryPoint and pool address) to the server’s chain configuration, then restart Bureau.</span>
        {chains
          .filter((c) => !c.configured && c.problem && c.chain !== chainName)
          .map((c) => (
            <span key={c.chain} className="muted">
              {c.chain}: {c.problem}
            </span>
          ))}
      </div>
    </Notice>
  );
}

function OutageBanner({ chain }: { chain: ChainStatus }) {
  const health = useChainHealth(chain.chain, !chain.chainReset);
  const h = health.data;
  const down = h && (!h.rpc.ok || !h.bundler.ok);
  if (!down && !chain.problem) return null;
  const what = !h ? null : !h.rpc.ok ? `The chain’s node (${chain.rpc ?? chain.chain}) is not answering` : !h.bundler.ok ? `The bundler (${chain.bundler ?? chain.chain}) is not answering` : null;
  const retry = async () => {
    await health.refetch();
    await refreshWallet();
  };
  return (
    <Notice kind="warning">
      <div className="stack" style={{ gap: 4 }} data-wallet="outage">
        <strong>{what ?? `The chain could not be read (${chain.problem})`}</strong>
        {(h?.affected.length ? h.affected : ['balances and history may be out of date']).map((line) => (
          <span key={line}>· {line[0].toUpperCase() + line.slice(1)}.</span>
        ))}
        <span className="muted">Bureau keeps trying; transfers move on by themselves when it answers again.</span>
        <div>
          <Button onClick={() => void retry()} busy={health.isFetching}>
            Retry
          </Button>
        </div>
      </div>
    </Notice>
  );
}

export function ChainNotices({ chain, chainName, chains }: { chain: ChainStatus | undefined; chainName: string; chains: ChainStatus[] }) {
  if (!chain?.configured) return <NotConfigured chainName={chainName} chains={chains} />;
  if (chain.chainReset) return <ResyncNotice chain={chainName} />;
  return <OutageBanner chain={chain} />;
}
