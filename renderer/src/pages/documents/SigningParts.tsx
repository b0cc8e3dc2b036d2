import { useState } from 'react';
import { Button, Modal, TextArea } from '../../ui/components';

const ZOOMS = [1, 1.5, 2, 2.5];

/** Zooms the document (it fits the screen's width at 100%). */
export function ZoomBar({ zoom, onZoom: setZoom }: { zoom: number; onZoom: (zoom: number) => void }) {
  const zoomIndex = ZOOMS.indexOf(zoom);
  return (
    <div className="zoom-bar" role="group" aria-label="Zoom">
      <Button variant="ghost" aria-label="Zoom out" disabled={zoomIndex <= 0} onClick={() => setZoom(ZOOMS[zoomIndex - 1])}>
        −
      </Button>
      <span aria-live="polite">{Math.round(zoom * 100)}%</span>
      <Button variant="ghost" aria-label="Zoom in" disabled={zoomIndex >= ZOOMS.length - 1} onClick={() => setZoom(ZOOMS[zoomIndex + 1])}>
        +
      </Button>
      {zoom !== 1 && (
        <Button variant="ghost" onClick={() => setZoom(1)}>
          Fit width
        </Button>
      )}
    </div>
  );
}

/** Progress through the fields, "Next field" and "Finish signing". */
export function SigningGuide({ fillable: count, current, missing: left, done, finishing, onNext, onFinish }: { fillable: number; current: number; missing: number; done: number; finishing: boolean; onNext: () => void; onFinish: () => void }) {
  return (
      <div className="signing-guide" role="region" aria-label="Signing progress">
        <div className="grow">
          <div aria-live="polite" data-testid="signing-progress">
            {count === 0 ? 'Nothing to fill in' : current >= 0 ? `Field ${current + 1} of ${count}` : `${count} field${count === 1 ? '' : 's'} to fill`}
            {count > 0 && <span className="muted"> · {left === 0 ? 'ready to finish' : `${left} required left`}</span>}
          </div>
          {count > 0 && (
            <div className="progress" role="progressbar" aria-label="Fields filled" aria-valuemin={0} aria-valuemax={count} aria-valuenow={done}>
              <div style={{ width: `${(done / count) * 100}%` }} />
            </div>
          )}
        </div>
        {count > 0 && (
          <Button variant={left > 0 ? 'primary' : 'secondary'} onClick={onNext}>
            Next field
          </Button>
        )}
        <Button variant="primary" busy={finishing} disabled={left > 0} onClick={onFinish}>
          Finish signing
        </Button>
      </div>
  );
}

/** Declining asks for a reason, which the sender sees. */
export function DeclineModal({ busy, onClose, onDecline }: { busy: boolean; onClose: () => void; onDecline: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
      <Modal
        title="Decline to sign"
        onClose={onClose}
        footer={
          <Button variant="danger" disabled={!reason.trim()} busy={busy} onClick={() => onDecline(reason)}>
            Decline
          </Button>
        }
      >
        <TextArea label="Reason (shared with the sender)" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
      </Modal>
  );
}
