import zlib from 'node:zlib';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { pngProblem } from '../../server/documents/png.js';

/** A 1×1 PNG as the signing tests send it. */
const TINY = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(body), body.length + 4);
  return out;
}

/** An RGBA PNG of the given size with zero pixels (optionally Adam7-interlaced). */
function makePng(width: number, height: number, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, interlace], 8);
  const passes = interlace
    ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]].map(([x0, y0, dx, dy]) => [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)])
    : [[width, height]];
  const raw = Buffer.concat(passes.filter(([w, h]) => w > 0 && h > 0).map(([w, h]) => Buffer.alloc(h * (1 + w * 4))));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function embeds(png: Buffer): Promise<boolean> {
  try {
    const pdf = await PDFDocument.create();
    await pdf.embedPng(png);
    return true;
  } catch {
    return false;
  }
}

describe('signature PNG check (pngProblem)', () => {
  it('accepts real PNGs, which pdf-lib then embeds', async () => {
    const qr = await QRCode.toBuffer('https://example.com', { type: 'png' });
    for (const png of [TINY, qr, makePng(600, 200), makePng(37, 23, 1)]) {
      expect(pngProblem(png)).toBeNull();
      expect(await embeds(png)).toBe(true);
    }
  });

  it('refuses truncated, corrupt and oversized images', () => {
    expect(pngProblem(Buffer.from('hello'))).toBe('is not a PNG image');
    // Magic bytes and part of IHDR: accepted before, then sealing failed with "Invalid typed array length: 0".
    expect(pngProblem(TINY.subarray(0, 20))).toBe('is a truncated PNG image');
    expect(pngProblem(TINY.subarray(0, TINY.length - 12))).toBe('is a truncated PNG image');
    const flipped = Buffer.from(TINY);
    flipped[40] ^= 0xff;
    expect(pngProblem(flipped)).toBe('is a corrupt PNG image');
    expect(pngProblem(makePng(8193, 1))).toBe('image has unsupported dimensions');
    expect(pngProblem(makePng(4000, 4000))).toBe('image is too large');
  });

  it('whatever it accepts, pdf-lib can embed (truncations and byte flips of real PNGs)', async () => {
    const qr = await QRCode.toBuffer('fuzz', { type: 'png' });
    const originals = [TINY, qr, makePng(50, 20, 1)];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...originals), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), async (original, cut, at, byte, truncate) => {
        const png = Buffer.from(original);
        const mutated = truncate ? png.subarray(0, cut % png.length) : (png.fill(byte, at % png.length, (at % png.length) + 1), png);
        if (pngProblem(mutated) === null) expect(await embeds(mutated)).toBe(true);
      }),
      { seed: 4242, numRuns: 300 },
    );
  });
});
