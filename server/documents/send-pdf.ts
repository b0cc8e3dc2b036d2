import type { Response } from 'express';

/** Sends a PDF as a download with a safe file name. */
export function sendPdf(res: Response, data: Buffer, name: string): void {
  const filename = name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`;
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(data.length));
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`);
  res.setHeader('Cache-Control', 'no-store');
  res.end(data);
}
