import { useRef, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { NUDGE_STEP, NUDGE_STEP_LARGE, boxOf, movedBox, resizedBox, type Box, type Handle } from './field-geometry';
import { FIELD_LABELS, type Field } from './types';

export type { Box } from './field-geometry';
const HANDLES: Handle[] = ['nw', 'ne', 'sw', 'se'];

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

interface Props {
  field: Field;
  color: string;
  /** The accessible name, e.g. "Signature field for Grace Hopper, page 1". */
  label: string;
  /** The id of the element that explains the keys (aria-describedby). */
  describedBy: string;
  selected: boolean;
  onSelect: () => void;
  onDeselect: () => void;
  /** A new placement while moving or resizing (shown at once, not saved yet). */
  onBox: (box: Box) => void;
  /** The move or resize is finished: save the placement. */
  onCommit: () => void;
  /** Arrow keys: move (or with Alt, resize) by the step. */
  onNudge: (kind: 'move' | 'resize', dx: number, dy: number) => void;
  onDelete: () => void;
  onBlur: () => void;
}

/**
 * A placed field in the request editor: drag to move, drag a corner handle to resize; focusable,
 * with arrow keys to move (Shift: a larger step, Alt: resize), Delete or Backspace to remove and
 * Escape to deselect.
 */
export function FieldBox({ field, color, label, describedBy, selected, onSelect, onDeselect, onBox, onCommit, onNudge, onDelete, onBlur }: Props) {
  const drag = useRef<{ px: number; py: number; box: Box; handle: Handle | null; moved: boolean; page: DOMRect } | null>(null);
  const style: CSSProperties = { left: `${field.x * 100}%`, top: `${field.y * 100}%`, width: `${field.width * 100}%`, height: `${field.height * 100}%`, borderColor: color, color };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    // No text selection or native drag while moving; focus (and selection) by hand instead.
    e.preventDefault();
    e.currentTarget.focus();
    onSelect();
    const handle = ((e.target as HTMLElement).dataset.handle as Handle | undefined) ?? null;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { px: e.clientX, py: e.clientY, box: boxOf(field), handle, moved: false, page: e.currentTarget.parentElement!.getBoundingClientRect() };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    // A press that barely moves is a click (select), not a move.
    if (!d.moved && Math.abs(e.clientX - d.px) < 3 && Math.abs(e.clientY - d.py) < 3) return;
    d.moved = true;
    const dx = (e.clientX - d.px) / d.page.width;
    const dy = (e.clientY - d.py) / d.page.height;
    onBox(d.handle ? resizedBox(d.box, d.handle, dx, dy) : movedBox(d.box, dx, dy));
  };
  const onPointerEnd = () => {
    const d = drag.current;
    drag.current = null;
    if (d?.moved) onCommit();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const arrow = ARROWS[e.key];
    if (arrow) {
      e.preventDefault();
      onSelect();
      const step = e.shiftKey ? NUDGE_STEP_LARGE : NUDGE_STEP;
      onNudge(e.altKey ? 'resize' : 'move', arrow[0] * step, arrow[1] * step);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      onDelete();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onDeselect();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect();
    }
  };

  return (
    <div
      className={`field-box editable-field ${selected ? 'selected' : ''}`}
      style={style}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={label}
      aria-describedby={describedBy}
      data-testid="field-box"
      data-field-id={field.id}
      data-field-type={field.type}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onFocus={onSelect}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <span className="field-caption" aria-hidden>
        {field.label || FIELD_LABELS[field.type]}
        {!field.required && <span className="field-optional"> (optional)</span>}
      </span>
      {selected && HANDLES.map((h) => <span key={h} className={`field-handle field-handle-${h}`} data-handle={h} data-testid={`field-handle-${h}`} aria-hidden />)}
    </div>
  );
}
