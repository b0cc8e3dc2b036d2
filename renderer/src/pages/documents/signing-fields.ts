// How the signer's fields read: their order, their accessible names and what each holds.
import { useRef, useState } from 'react';
import { isImage } from './SigningFieldControl';
import { FIELD_LABELS, type Field } from './types';

/** Filled in from the signer's details; shown but not edited. */
export const READ_ONLY: Field['type'][] = ['name', 'email'];

/** Reading order: page by page, top to bottom, left to right within a line. */
export function readingOrder(a: Field, b: Field): number {
  if (a.page !== b.page) return a.page - b.page;
  if (Math.abs(a.y - b.y) > 0.01) return a.y - b.y;
  return a.x - b.x;
}

/** The field's name as a control: its label or type, and whether the signer must fill it. */
export function fieldName(f: Field, editable: boolean): string {
  return `${f.label ?? FIELD_LABELS[f.type]}${f.required && editable ? ' (required)' : ''}`;
}

/** What the field holds, in words for a screen reader. */
export function fieldState(f: Field, value: string | boolean | null): string {
  if (READ_ONLY.includes(f.type)) return `${String(value ?? '')}, filled in for you`;
  if (!value) return 'empty';
  if (isImage(value)) return 'drawn signature';
  return f.type === 'signature' || f.type === 'initials' ? `signed as ${String(value)}` : String(value);
}

/** "Next field": which fillable field is current, and moving to one (scrolled into view both ways, for a zoomed page, and focused). */
export function useFieldWalk() {
  const [current, setCurrent] = useState(-1);
  const controls = useRef(new Map<string, HTMLButtonElement>());
  const register = (id: string) => (el: HTMLButtonElement | null) => {
    if (el) controls.current.set(id, el);
    else controls.current.delete(id);
  };
  const goTo = (fillable: Field[], index: number) => {
    const f = fillable[index];
    if (!f) return;
    setCurrent(index);
    const el = controls.current.get(f.id);
    el?.scrollIntoView({ block: 'center', inline: 'center' });
    el?.focus({ preventScroll: true });
  };
  /** The next field still to fill after the current one (wrapping), else simply the next one. */
  const next = (fillable: Field[], isFilled: (f: Field) => boolean) => {
    const n = fillable.length;
    for (let step = 1; step <= n; step++) {
      const i = (current + step + n) % n;
      if (!isFilled(fillable[i])) return goTo(fillable, i);
    }
    goTo(fillable, (current + 1) % n);
  };
  return { current, setCurrent, register, next };
}
