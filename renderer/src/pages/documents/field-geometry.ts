// Where a field sits on its page, as fractions of the page: moving and resizing keep it on the page.

/** A field's placement as fractions of its page (origin top-left). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Handle = 'nw' | 'ne' | 'sw' | 'se';

/** Keyboard steps as fractions of the page: an arrow key, and Shift with an arrow key. */
export const NUDGE_STEP = 0.005;
export const NUDGE_STEP_LARGE = 0.05;
/** The smallest a field can be resized to (1 % of the page). */
const MIN_SIZE = 0.01;

const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);
/** Fractions kept to 6 decimals, so steps add up without floating-point dust. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const rounded = (b: Box): Box => ({ x: round(b.x), y: round(b.y), width: round(b.width), height: round(b.height) });

export const boxOf = (f: Box): Box => ({ x: f.x, y: f.y, width: f.width, height: f.height });

/** The box moved by (dx, dy), kept on the page. */
export function movedBox(b: Box, dx: number, dy: number): Box {
  return rounded({ ...b, x: clamp(b.x + dx, 0, 1 - b.width), y: clamp(b.y + dy, 0, 1 - b.height) });
}

/** The box with one corner dragged by (dx, dy); the opposite corner stays, the box stays on the page. */
export function resizedBox(b: Box, handle: Handle, dx: number, dy: number): Box {
  let { x, y, width, height } = b;
  const right = x + width;
  const bottom = y + height;
  if (handle.includes('w')) {
    x = clamp(x + dx, 0, right - MIN_SIZE);
    width = right - x;
  } else width = clamp(width + dx, MIN_SIZE, 1 - x);
  if (handle.includes('n')) {
    y = clamp(y + dy, 0, bottom - MIN_SIZE);
    height = bottom - y;
  } else height = clamp(height + dy, MIN_SIZE, 1 - y);
  return rounded({ x, y, width, height });
}
