// Reads the text of PDFs in a worker thread (unpdf: pdf.js built for servers, without the canvas
// the browser build needs to load), so a long PDF never stalls the API: pdf.js parses on the thread
// that calls it under Node. Plain JS so it loads the same way under node, tsx, vitest and a bundled
// app; the message types live in pdf-text.ts.
import { parentPort } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';

/** Every page's text, pages separated by a blank line, cut at `maxChars`. */
async function readText(data, maxChars) {
  const pdf = await getDocumentProxy(data, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
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
    // Ends the document and its (in-thread) pdf.js worker; this build has no proxy-level destroy.
    await pdf.loadingTask.destroy();
  }
}

parentPort.on('message', async ({ id, data, maxChars }) => {
  try {
    parentPort.postMessage({ id, ok: true, text: await readText(data, maxChars) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
