import type { CSSProperties, MouseEvent } from 'react';
import { FIELD_LABELS, type Field } from './types';

export const isImage = (v: unknown): v is string => typeof v === 'string' && v.startsWith('data:image/png');

interface Props {
  field: Field;
  value: string | boolean | null;
  editable: boolean;
  filled: boolean;
  isCurrent: boolean;
  /** The control's accessible name: what the field is, whether required, and (but for a checkbox) what it holds. */
  label: string;
  register: (el: HTMLButtonElement | null) => void;
  onFocus: () => void;
  onActivate: (e: MouseEvent) => void;
}

/** One field on the signer's page: a real control (a checkbox that Space toggles, or a button opening its dialog). */
export function SigningFieldControl({ field: f, value, editable: can, filled, isCurrent, label, register, onFocus, onActivate }: Props) {
  const style: CSSProperties = { left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.width * 100}%`, height: `${f.height * 100}%` };
  const common = {
    ref: register,
    type: 'button' as const,
    style,
    className: `field-box signing-field ${can ? 'fillable' : ''} ${filled ? 'filled' : ''} ${isCurrent ? 'current' : ''}`,
    'data-testid': 'field-box',
    'data-field-type': f.type,
    onFocus,
  };
  if (f.type === 'checkbox') {
    const checked = value === true || value === 'true';
    return (
      <button {...common} role="checkbox" aria-checked={checked} aria-required={f.required && can} aria-label={label} aria-disabled={!can || undefined} onClick={can ? onActivate : undefined}>
        <span className="field-content" aria-hidden>
          {checked ? '☑' : '☐'}
        </span>
      </button>
    );
  }
  return (
    <button {...common} aria-label={label} aria-haspopup={can ? 'dialog' : undefined} aria-disabled={!can || undefined} onClick={can ? onActivate : undefined}>
      <span className="field-content" aria-hidden>
        {isImage(value) ? <img src={value} alt="" /> : <span className={value && (f.type === 'signature' || f.type === 'initials') ? 'typed-signature' : undefined}>{value ? String(value) : `${FIELD_LABELS[f.type]}${f.required ? ' *' : ''}`}</span>}
      </span>
    </button>
  );
}
