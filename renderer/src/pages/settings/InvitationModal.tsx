import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { Button, CopyField, Modal, Notice } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import type { Added } from './InviteModal';

export type HostedInvitation = NonNullable<Added['invitation']>;

/** The invitation just made or resent: the code and link (also as a QR code) to pass on by other means. */
export function InvitationModal({ invitation, onClose }: { invitation: HostedInvitation; onClose: () => void }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(invitation.joinUrl, { margin: 1, width: 168, errorCorrectionLevel: 'M' }).then((url) => live && setQr(url), () => live && setQr(null));
    return () => {
      live = false;
    };
  }, [invitation.joinUrl]);
  return (
    <Modal
      title={`${invitation.name ?? invitation.email} is invited`}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        {invitation.mailed ? <Notice kind="success">An e-mail with the join link went to {invitation.email}.</Notice> : <Notice kind="warning">No e-mail was sent (the hosted instance has no mail server): pass on the link or the code yourself.</Notice>}
        <div className="sync-code-box">
          {qr && <img src={qr} width={168} height={168} alt="QR code of the join link" className="sync-qr" />}
          <div className="stack" style={{ gap: 6 }}>
            <div className="muted">Invitation code</div>
            <CopyField value={invitation.code} label="Invitation code" />
            <div className="field-hint">Single use. Valid until {formatDateTime(invitation.expiresAt)}.</div>
          </div>
        </div>
        <CopyField value={invitation.joinUrl} label="Join link" />
        <CopyField value={invitation.hostedUrl} label="Hosted URL" />
        <p className="muted">On a fresh install they choose “Accept an invitation” and enter the hosted URL, this code, their e-mail ({invitation.email}), their name and a password of their own.</p>
      </div>
    </Modal>
  );
}
