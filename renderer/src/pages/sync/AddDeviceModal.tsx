import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { Button, CopyField, ErrorBanner, Modal, Spinner } from '../../ui/components';
import { useEntityQuery } from '../../api';
import { syncApi } from './sync-api';

/** A single-use, 10-minute add-device code, as text and as a QR code, and how to use it. */
export function AddDeviceModal({ entityId, hostedUrl, onClose }: { entityId: string; hostedUrl: string; onClose: () => void }) {
  // A new code each time the dialog opens (none is kept once it closes) and when New code asks, never by itself.
  const code = useEntityQuery(['sync', 'device-code'], () => syncApi.addDeviceCode(entityId), { gcTime: 0, staleTime: Infinity });
  const [qr, setQr] = useState<string | null>(null);
  const now = useNow(1000);
  const value = code.data?.code;
  useEffect(() => {
    if (!value) return;
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width: 168, errorCorrectionLevel: 'M' }).then((url) => live && setQr(url), () => live && setQr(null));
    return () => {
      live = false;
    };
  }, [value]);
  const left = code.data ? Math.max(0, Math.floor((new Date(code.data.expiresAt).getTime() - now) / 1000)) : 0;
  return (
    <Modal
      title="Add a device"
      onClose={onClose}
      footer={
        <>
          {code.data && left === 0 && (
            <Button onClick={() => void code.refetch()} busy={code.isFetching}>
              New code
            </Button>
          )}
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </>
      }
    >
      <ErrorBanner error={code.error?.message} onRetry={() => void code.refetch()} />
      {code.isPending ? (
        <Spinner label="Getting a code…" />
      ) : (
        code.data && (
          <div className="stack">
            <div className="sync-code-box">
              {qr && <img src={qr} width={168} height={168} alt="QR code of the add-device code" className="sync-qr" />}
              <div className="stack" style={{ gap: 6 }}>
                <div className="muted">Add-device code</div>
                <div className="sync-code">
                  <CopyField value={code.data.code} label="Add-device code" />
                </div>
                <div className={left === 0 ? 'field-error' : 'field-hint'}>
                  {left === 0
                    ? 'This code has expired.'
                    : `Single use. Expires at ${new Date(code.data.expiresAt).toLocaleTimeString(undefined, { timeStyle: 'short' })} (in ${Math.ceil(left / 60)} min).`}
                </div>
              </div>
            </div>
            <ol className="sync-steps">
              <li>On the other device, open Bureau and choose “Join from another device” on the sign-in screen.</li>
              <li>
                Enter this hosted URL and the code:
                <CopyField value={hostedUrl} label="Hosted URL" />
              </li>
              <li>Sign in with your e-mail and the password you use on this device (one password on all your devices). Everything of this entity is copied there.</li>
            </ol>
          </div>
        )
      )}
    </Modal>
  );
}

function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
