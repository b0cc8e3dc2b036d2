import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageSize } from './tables.js';

export interface SealInput {
  original: Buffer;
  entityName: string;
  request: { id: string; title: string; sentAt: string | null; createdByName: string | null };
  document: { name: string; sha256: string };
  signers: { name: string; email: string; role: string; status: string; viewedAt: string | null; signedAt: string | null; signedIp: string | null; signedUserAgent: string | null }[];
  fields: { type: string; page: number; x: number; y: number; width: number; height: number; value: string | null }[];
  auditHeadHash: string | null;
  certificate: { certPem: string; keyPem: string; fingerprint: string };
  completedAt: Date;
}

const workerUrl = new URL('./seal-worker.mjs', import.meta.url);
/** Caveat (OFL, resources/fonts) for typed signatures in the sealed PDF: the Latin subset first, then Latin Extended. */
const scriptFontDir = fileURLToPath(new URL('../../resources/fonts/caveat/', import.meta.url));
const scriptFontFiles = ['caveat-latin-400-normal.woff', 'caveat-latin-ext-400-normal.woff'];
let scriptFonts: Buffer[] | null = null;
const SEAL_TIMEOUT_MS = 120_000;

export interface SealedPdf {
  pdf: Buffer;
  /** Page sizes of the sealed PDF as displayed (the original's pages, then the certificate pages). */
  pages: PageSize[];
}

/**
 * Stamps the field values, flattens forms, appends the certificate page and seals with PKCS#7 —
 * in a worker thread (seal-worker.mjs), so a large PDF never blocks the API.
 */
export function buildSealedPdf(input: SealInput): Promise<SealedPdf> {
  return new Promise((resolve, reject) => {
    scriptFonts ??= scriptFontFiles.map((f) => fs.readFileSync(path.join(scriptFontDir, f)));
    const worker = new Worker(workerUrl, { workerData: { ...input, scriptFonts } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('Sealing the PDF timed out'));
    }, SEAL_TIMEOUT_MS);
    worker.once('message', (msg: { ok: true; pdf: Uint8Array; pages: PageSize[] } | { ok: false; error: string }) => {
      clearTimeout(timer);
      if (msg.ok) resolve({ pdf: Buffer.from(msg.pdf.buffer, msg.pdf.byteOffset, msg.pdf.byteLength), pages: msg.pages });
      else reject(new Error(`Sealing the PDF failed: ${msg.error}`));
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`Sealing worker exited with code ${code}`));
    });
  });
}
