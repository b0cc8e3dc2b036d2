import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { PdfTextError, readPdfText } from './pdf-text.js';

/** PDFs looked up per round: the rounds repeat while there are more. */
const ROUND = 100;

interface Pending {
  entityId: string;
  sha256: string;
}

const running = new WeakMap<Context, { promise: Promise<number>; again: boolean }>();

/** Documents whose bytes have no text read yet (one per entity and content hash). */
function pendingTexts(ctx: Context, limit: number, after: Pending | null): Pending[] {
  return ctx.sqlite
    .prepare(
      `select distinct d.entity_id as entityId, d.sha256 from documents d
       where (d.entity_id, d.sha256) > (?, ?)
         and not exists (select 1 from document_texts t where t.entity_id = d.entity_id and t.sha256 = d.sha256)
       order by d.entity_id, d.sha256 limit ?`,
    )
    .all(after?.entityId ?? '', after?.sha256 ?? '', limit) as Pending[];
}

function saveText(ctx: Context, p: Pending, text: string, failed: boolean) {
  ctx.sqlite
    .prepare('insert into document_texts (entity_id, sha256, text, failed, extracted_at) values (?, ?, ?, ?, ?) on conflict do nothing')
    .run(p.entityId, p.sha256, text, failed ? 1 : 0, nowIso(ctx));
}

async function extractPending(ctx: Context): Promise<number> {
  let read = 0;
  let after: Pending | null = null;
  for (;;) {
    const batch = pendingTexts(ctx, ROUND, after);
    for (const p of batch) {
      // A synced document whose bytes have not arrived yet: a later round reads it.
      if (ctx.loops.signal.aborted || !ctx.blobs.has(p.sha256)) continue;
      try {
        const text = await readPdfText(ctx.blobs.get(p.sha256));
        if (ctx.loops.signal.aborted) return read;
        saveText(ctx, p, text, false);
        read++;
      } catch (err) {
        if (ctx.loops.signal.aborted) return read;
        // A PDF whose text cannot be read is found by its name alone, and not tried again.
        if (err instanceof PdfTextError) saveText(ctx, p, '', true);
        else throw err;
      }
    }
    if (batch.length < ROUND) return read;
    after = batch[batch.length - 1];
  }
}

/**
 * Reads the text of every document's PDF that has none yet (uploads, filed signed copies, and
 * documents whose bytes arrived by sync) into `document_texts`, whose triggers put it in the
 * search index. One run at a time per server; a call during a run makes it look again after.
 * Resolves with the number of PDFs read.
 */
export function extractDocumentTexts(ctx: Context): Promise<number> {
  const current = running.get(ctx);
  if (current) {
    current.again = true;
    return current.promise;
  }
  const state = { promise: Promise.resolve(0), again: false };
  state.promise = (async () => {
    let total = 0;
    try {
      do {
        state.again = false;
        total += await extractPending(ctx);
      } while (state.again && !ctx.loops.signal.aborted);
      return total;
    } finally {
      running.delete(ctx);
    }
  })();
  running.set(ctx, state);
  return state.promise;
}

/** Starts reading new PDFs' text now, after the response (the loop would otherwise in a while). */
export function requestTextExtraction(ctx: Context): void {
  extractDocumentTexts(ctx).catch((err: unknown) => {
    if (!ctx.loops.signal.aborted) ctx.log.warn({ err }, 'reading PDF text failed');
  });
}
