// A chain reset stops the wallet until it is resynced: what happened, and the one action that
// rebuilds the notes from the chain (keys stay). A transfer still in flight makes the server say so.
import { Button, ErrorBanner, Notice } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { refreshWallet, walletCalls } from './data';
import { explainError } from './format';

export function ResyncNotice({ chain }: { chain: string }) {
  const resync = useAction(async () => {
    await walletCalls.resync(chain);
    await refreshWallet();
  });
  return (
    <Notice kind="warning">
      <div className="stack" style={{ gap: 6 }}>
        <strong>This chain was reset: notes from before are gone</strong>
        <span>
          The chain “{chain}” is not the one your notes came from. Nothing is spent until the wallet is resynced: Resync rebuilds the notes from the chain as it is now (your keys
          stay) and the books reverse what the reset undid.
        </span>
        <div>
          <Button variant="primary" disabled={resync.pending} onClick={() => void resync.run()}>
            {resync.pending ? 'Resyncing…' : 'Resync'}
          </Button>
        </div>
        <ErrorBanner error={resync.error ? explainError(resync.error) : null} />
      </div>
    </Notice>
  );
}
