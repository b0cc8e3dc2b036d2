import type { CSSProperties, ReactNode } from 'react';
import type { Field } from './types';

/** A field overlay positioned by its page fractions. */
export function FieldBox({ field, color, children, className = '', onClick, label }: { field: Field; color: string; children?: ReactNode; className?: string; onClick?: () => void; label: string }) {
  const style: CSSProperties = { left: `${field.x * 100}%`, top: `${field.y * 100}%`, width: `${field.width * 100}%`, height: `${field.height * 100}%`, borderColor: color, color };
  return (
    <div className={`field-box ${className}`} style={style} onClick={onClick} role={onClick ? 'button' : undefined} aria-label={label} data-testid="field-box" data-field-type={field.type}>
      {children}
    </div>
  );
}
