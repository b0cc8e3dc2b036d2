import { useQrCode } from './useQrCode';
import { Card, CopyField } from '../../ui/components';

/** The entity's shielded address (to receive privately) and its smart account (to fund shielding). */
export function ReceiveCard({ shieldedAddress, accountAddress, chain, configured }: { shieldedAddress: string; accountAddress: string | null; chain: string; configured: boolean }) {
  const qr = useQrCode(shieldedAddress, 176);
  return (
    <Card title="Receive">
      <div className="wallet-receive">
        {qr && <img src={qr} width={176} height={176} alt="QR code of the shielded address" className="wallet-qr" />}
        <div className="stack" style={{ gap: 12, minWidth: 0, flex: 1 }}>
          <div>
            <div className="wallet-label">Shielded address</div>
            <CopyField value={shieldedAddress} label="Shielded address" />
            <div className="field-hint">Share it to receive private transfers. Only this device can read what arrives.</div>
          </div>
          {configured && (
            <div>
              <div className="wallet-label">Smart account on {chain}</div>
              {accountAddress ? <CopyField value={accountAddress} label="Smart account address" /> : <span className="muted">Not available while the chain cannot be reached.</span>}
              <div className="field-hint">Public funds sent here can be shielded.</div>
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}
