import { useSession } from '../../session';
import { Button, Card, ErrorBanner, Notice, PageHeader, Spinner } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { InitializedWallet } from './InitializedWallet';
import { ReadOnlyWallet } from './ReadOnlyWallet';
import { explainError } from './format';
import { refreshWallet, useWalletStatus, walletCalls } from './data';
import './wallet.css';

export function WalletPage() {
  const session = useSession();
  const status = useWalletStatus();
  const setup = useAction(async () => {
    await walletCalls.initialize();
    await refreshWallet();
  });
  if (!session.can('PRIVACY.USE')) return <Notice kind="warning">Your role does not include the private wallet.</Notice>;
  if (!status.data) return status.error ? <ErrorBanner error={explainError(status.error)} onRetry={() => void status.refetch()} /> : <Spinner />;
  const s = status.data;
  if (s.heldElsewhere || s.keysUnavailable) return <ReadOnlyWallet status={s} />;
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
  return <InitializedWallet status={s} />;
}
