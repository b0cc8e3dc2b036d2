import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from './focus';

/**
 * A modal dialog: focus moves inside (to the first form control, else the first button), Tab and
 * Shift+Tab cycle within it, Escape closes it, and focus returns to the control that opened it.
 */
export function Modal({ title, onClose, children, footer }: { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(ref, true, {
    onEscape: onClose,
    initialFocus: () =>
      ref.current?.querySelector<HTMLElement>('.modal-body input:not([type="hidden"]):not([disabled]), .modal-body select:not([disabled]), .modal-body textarea:not([disabled])') ??
      ref.current?.querySelector<HTMLElement>('.modal-body button:not([disabled]), button:not([disabled])'),
  });
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} tabIndex={-1}>
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </div>
  );
}
