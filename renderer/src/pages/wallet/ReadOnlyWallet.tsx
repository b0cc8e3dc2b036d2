// A wallet this device cannot spend from: its keys are on another of the entity's devices, or
// they did not come with a restore or import (no recovery passphrase). Its history, read-only.
import { useSession } from '../../session';
import { Card, ErrorBanner, Notice, PageHeader, Spinner } from '../../ui/components';
import { HistoryCard } from './HistoryCard';
import { explainError } from './format';
import { useHistory, type PrivacyStatus } from './data';

export function ReadOnlyWallet({ status }: { status: PrivacyStatus }) {
  const session = useSession();
  const history = useHistory();
  return (
    <>
      <PageHeader title="Wallet" subtitle="Private (shielded) funds for this business" />
      {status.heldElsewhere ? (
        <Notice kind="info">
          The keys of {session.entity?.name}'s wallet are on another of its devices. Payments are made there; here you see its history, synced without transaction details.
        </Notice>
      ) : (
        <Notice kind="warning">
          <span data-wallet="keys-unavailable">
            The keys of {session.entity?.name}'s wallet did not come with it to this install: it was restored or imported without the recovery passphrase. It cannot spend or see its funds here; restore or import the backup again with the passphrase.
          </span>
        </Notice>
      )}
      <Card title="Wallet address">
        <code style={{ wordBreak: 'break-all' }}>{status.shieldedAddress}</code>
      </Card>
      {history.data ? <HistoryCard items={history.data.items} tokens={[]} /> : history.error ? <ErrorBanner error={explainError(history.error)} onRetry={() => void history.refetch()} /> : <Spinner />}
    </>
  );
}
