import type { PDFDocument } from 'pdf-lib';
import { BadRequestError } from '../http/errors.js';
import type { PageSize } from './tables.js';

/** Rejects anything that is not a readable, unencrypted PDF; returns its pages' sizes in points. */
export async function inspectPdf(data: Buffer): Promise<{ pageCount: number; pages: PageSize[] }> {
  const head = data.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) throw new BadRequestError('The file is not a PDF');
  // pdf-lib loads with the first PDF, not at start.
  const { EncryptedPDFError, PDFDocument } = await import('pdf-lib');
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(data, { updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new BadRequestError('Encrypted (password-protected) PDFs are not supported');
    throw new BadRequestError('The PDF could not be read');
  }
  let pages: PageSize[];
  try {
    pages = readPageSizes(pdf);
  } catch {
    throw new BadRequestError('The PDF could not be read');
  }
  if (pages.length === 0) throw new BadRequestError('The PDF has no pages');
  return { pageCount: pages.length, pages };
}

function readPageSizes(pdf: PDFDocument): PageSize[] {
  return pdf.getPages().map((p) => {
    const { width, height } = p.getSize();
    const quarterTurns = ((p.getRotation().angle % 360) + 360) % 360;
    // As displayed: a page rotated by 90° or 270° shows its width as height.
    return quarterTurns === 90 || quarterTurns === 270 ? { width: round(height), height: round(width) } : { width: round(width), height: round(height) };
  });
}

const round = (n: number) => Math.round(n * 100) / 100;
