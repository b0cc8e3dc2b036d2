import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** A QR code of `value` as a data URL (null while it is drawn, or if it cannot be). */
export function useQrCode(value: string, width: number): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width, errorCorrectionLevel: 'M' }).then((u) => live && setUrl(u), () => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [value, width]);
  return url;
}
