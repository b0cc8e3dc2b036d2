import zlib from 'node:zlib';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Largest drawn signature accepted: pixels per side, and bytes of decoded image data. */
const MAX_SIDE = 8192;
const MAX_RAW_BYTES = 32 * 1024 * 1024;
/** Samples per pixel and the bit depths PNG allows, by colour type. */
const COLOR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
/** Adam7 passes: x/y start and step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * Why a PNG could not be embedded in the sealed PDF, or null when it can. Checks the chunk
 * layout and checksums (IHDR first, IDAT, IEND), the header, and that the image data inflates to
 * exactly the size the header promises — without decoding pixels, and bounded against bombs.
 * Only the magic bytes were checked before: a truncated PNG was accepted at signing and then
 * made sealing fail, leaving the request stuck in `sent`.
 */
export function pngProblem(png: Buffer): string | null {
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_MAGIC)) return 'is not a PNG image';
  let header: { width: number; height: number; depth: number; colorType: number; interlace: number } | null = null;
  const idat: Buffer[] = [];
  let palette = false;
  let ended = false;
  for (let pos = 8; pos + 12 <= png.length && !ended; ) {
    const length = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    if (pos + 12 + length > png.length) return 'is a truncated PNG image';
    if (zlib.crc32(png.subarray(pos + 4, pos + 8 + length)) !== png.readUInt32BE(pos + 8 + length)) return 'is a corrupt PNG image';
    const data = png.subarray(pos + 8, pos + 8 + length);
    if (!header && type !== 'IHDR') return 'is a corrupt PNG image';
    if (type === 'IHDR') {
      if (header || length !== 13) return 'is a corrupt PNG image';
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], colorType: data[9], interlace: data[12] };
    } else if (type === 'PLTE') palette = true;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    pos += 12 + length;
  }
  if (!header || !idat.length || !ended) return 'is a truncated PNG image';
  const { width, height, depth, colorType, interlace } = header;
  const color = COLOR_TYPES[colorType];
  if (!color || !color.depths.includes(depth) || interlace > 1 || (colorType === 3 && !palette)) return 'is a corrupt PNG image';
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return 'image has unsupported dimensions';
  const bitsPerPixel = color.channels * depth;
  const rowBytes = (w: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);
  const expected =
    interlace === 0
      ? height * rowBytes(width)
      : ADAM7.reduce((sum, [x0, y0, dx, dy]) => {
          const w = Math.ceil((width - x0) / dx);
          const h = Math.ceil((height - y0) / dy);
          return w > 0 && h > 0 ? sum + h * rowBytes(w) : sum;
        }, 0);
  if (expected > MAX_RAW_BYTES) return 'image is too large';
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(Buffer.concat(idat), { maxOutputLength: expected });
  } catch {
    return 'is a corrupt PNG image';
  }
  return raw.length === expected ? null : 'is a corrupt PNG image';
}
