import type { Response } from 'express';

/** A PDF download's headers, with a safe file name. */
export function setPdfHeaders(res: Response, size: number, name: string): void {
  const filename = name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`;
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(size));
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`);
  res.setHeader('Cache-Control', 'no-store');
}

/** Sends a PDF as a download with a safe file name. */
export function sendPdf(res: Response, data: Buffer, name: string): void {
  setPdfHeaders(res, data.length, name);
  res.end(data);
}
