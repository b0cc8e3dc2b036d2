import { Button, Card, CopyField, ErrorBanner, Spinner } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { displayAmount, explainError } from './format';
import { useQrCode } from './useQrCode';
import { refreshWallet, usePublicAccounts, useRelayChoice, walletCalls } from './data';

function Qr({ value, label }: { value: string; label: string }) {
  const url = useQrCode(value, 112);
  return url ? <img src={url} width={112} height={112} alt={`QR code of the ${label}`} className="wallet-qr" /> : null;
}

/**
 * The public side a newcomer must fund first: the business's smart account pays network fees and
 * holds the public funds to shield; the business's own relayer pays gas to submit its private transfers.
 */
export function AccountsCard({ chain }: { chain: string }) {
  const accounts = usePublicAccounts(chain);
  // A linked business relays through its hosted instance: its own relayer is then a fallback.
  const relay = useRelayChoice(chain);
  const hosted = relay.data?.via === 'hosted' ? relay.data : null;
  const fund = useAction(async (target: 'account' | 'relayer') => {
    await walletCalls.devnetFund(chain, target);
    await refreshWallet();
  });
  const a = accounts.data;
  const row = (key: 'account' | 'relayer', title: string, why: string) => {
    const entry = a![key];
    const empty = entry.balance === '0';
    return (
      <div className="wallet-receive" data-public-account={key}>
        <Qr value={entry.address} label={title} />
        <div className="stack" style={{ gap: 8, minWidth: 0, flex: 1 }}>
          <div className="wallet-label">{title}</div>
          <CopyField value={entry.address} label={`${title} address`} />
          <div aria-label={`${title} balance`}>
            <strong>{entry.balance === null ? 'balance unknown' : `${displayAmount(entry.balance, 18)} ${a!.nativeSymbol}`}</strong>
          </div>
          <div className="field-hint">
            {why} {empty && `To fund it, send ${a!.nativeSymbol} on ${a!.chain} (chain ${a!.chainId}) to this address from any wallet or exchange.`}
          </div>
          {a!.devnet && (
            <div>
              <Button busy={fund.pending} onClick={() => void fund.run(key)}>
                Fund from the devnet (1 {a!.nativeSymbol})
              </Button>
            </div>
          )}
        </div>
      </div>
    );
  };
  return (
    <Card title="Public accounts">
      <ErrorBanner error={accounts.error ? explainError(accounts.error) : fund.error ? explainError(fund.error) : null} onRetry={() => void accounts.refetch()} />
      {!a ? (
        accounts.error ? null : <Spinner />
      ) : (
        <div className="stack" style={{ gap: 16 }}>
          {row('account', 'Business account', 'Pays the network fees of shielding and holds the public funds you shield.')}
          {row(
            'relayer',
            'Relayer',
            hosted
              ? `Private transfers and unshields of ${a.nativeSymbol} go through the hosted relay (${hosted.relayer.slice(0, 8)}…), paid a fee from the shielded funds, so they are not tied to this business. This business’s own relayer submits only tokens the hosted relay takes no fee in.`
              : 'This business’s own relayer (no other business here uses it) pays the gas to submit its private transfers and unshields; the gas is booked as a network fee.',
          )}
        </div>
      )}
    </Card>
  );
}
