import { Worker } from 'node:worker_threads';

/** Text kept per PDF: enough for any contract or statement; a scanned book is cut here. */
export const MAX_PDF_TEXT_CHARS = 500_000;
const TEXT_TIMEOUT_MS = 120_000;
/** The worker stays this long after its last job (pdf.js takes a few hundred ms to load). */
const IDLE_MS = 30_000;

const workerUrl = new URL('./pdf-text-worker.mjs', import.meta.url);

/** The PDF's own fault (its text cannot be read, or reading it never ends): trying again will not help. */
export class PdfTextError extends Error {}

type Reply = { id: number; ok: true; text: string } | { id: number; ok: false; error: string };

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }>();

function failAll(err: Error) {
  for (const [id, w] of waiting) {
    clearTimeout(w.timer);
    w.reject(err);
    waiting.delete(id);
  }
}

function startWorker(): Worker {
  const w = new Worker(workerUrl);
  // Never what keeps a process alive: a server closing does not wait for text extraction.
  w.unref();
  w.on('message', (msg: Reply) => {
    const job = waiting.get(msg.id);
    if (!job) return;
    waiting.delete(msg.id);
    clearTimeout(job.timer);
    if (msg.ok) job.resolve(msg.text);
    else job.reject(new PdfTextError(`Reading the PDF's text failed: ${msg.error}`));
    if (waiting.size === 0) scheduleIdleStop();
  });
  w.on('error', (err) => {
    if (worker === w) worker = null;
    failAll(new Error(`The PDF text worker failed: ${err.message}`));
  });
  w.on('exit', () => {
    if (worker === w) worker = null;
    failAll(new Error('The PDF text worker stopped'));
  });
  return w;
}

function scheduleIdleStop() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (waiting.size === 0 && worker) {
      const w = worker;
      worker = null;
      void w.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/**
 * The PDF's text, every page, read by pdf.js (unpdf) in a worker thread (pdf-text-worker.mjs) shared by
 * the jobs of this process, so a long PDF never blocks the API. Rejects when the PDF's text
 * cannot be read or takes longer than two minutes (the worker is then replaced).
 */
export function readPdfText(data: Buffer, maxChars = MAX_PDF_TEXT_CHARS): Promise<string> {
  if (idleTimer) clearTimeout(idleTimer);
  worker ??= startWorker();
  const w = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      if (worker === w) worker = null;
      void w.terminate();
      reject(new PdfTextError("Reading the PDF's text timed out"));
    }, TEXT_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    // A copy: the caller's buffer may be a slice of a pooled one.
    const bytes = new Uint8Array(data);
    w.postMessage({ id, data: bytes, maxChars }, [bytes.buffer]);
  });
}
