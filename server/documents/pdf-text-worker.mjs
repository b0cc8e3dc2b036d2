// Reads the text of PDFs in a worker thread (pdfjs-dist), so a long PDF never stalls the API:
// pdfjs parses on the thread that calls it when it runs under Node. Plain JS so it loads the same
// way under node, tsx, vitest and a bundled app; the message types live in pdf-text.ts.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
// Fonts pdfjs may need to map glyphs to text; a folder path ending in a separator under Node.
const standardFontDataUrl = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
let pdfjs = null;

/** Every page's text, pages separated by a blank line, cut at `maxChars`. */
async function readText(data, maxChars) {
  pdfjs ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data, standardFontDataUrl, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages = [];
    let length = 0;
    for (let i = 1; i <= pdf.numPages && length < maxChars; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      pages.push(text);
      length += text.length + 2;
      page.cleanup();
    }
    return pages.join('\n\n').slice(0, maxChars);
  } finally {
    await pdf.destroy();
  }
}

parentPort.on('message', async ({ id, data, maxChars }) => {
  try {
    parentPort.postMessage({ id, ok: true, text: await readText(data, maxChars) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
