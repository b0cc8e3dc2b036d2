// `GET /` of the hosted instance: whoever finds its address (a signer trimming a link, an
// operator, a scanner) learns what this server is, instead of a bare JSON 404.
import type { RequestHandler } from 'express';
import { VERSION } from '../version.js';
import type { HostedContext } from './context.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page, made once: what it says depends only on the instance's configuration. */
export function renderHomePage(h: Pick<HostedContext, 'publicUrl' | 'relay'>): string {
  const where = h.publicUrl ? ` at <strong>${escapeHtml(h.publicUrl)}</strong>` : '';
  const relay = h.relay ? 'relays shielded transfers for businesses that use Bureau' : 'not set up on this instance';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Bureau hosted instance</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1e293b}code{font-size:.9em}footer{margin-top:2rem;color:#64748b;font-size:.9em}</style>
</head>
<body>
<main>
<h1>Bureau hosted instance</h1>
<p>This server${where} is a hosted instance of Bureau, a business platform that runs on its users' own computers. There is nothing to browse here; it serves:</p>
<ul>
<li><strong>Sync</strong> for the Bureau desktops linked to it (<code>/sync/v1</code>).</li>
<li><strong>Signing pages</strong>: if you were asked to sign a document, open the link in the e-mail you received (<code>/sign/…</code>).</li>
<li><strong>Relay</strong>: ${relay} (<code>/api/relay</code>).</li>
</ul>
</main>
<footer>Bureau ${escapeHtml(VERSION)} · <a href="/api/health">health</a></footer>
</body>
</html>
`;
}

export function homePage(h: HostedContext): RequestHandler {
  const html = renderHomePage(h);
  return (_req, res) => {
    res.type('html').send(html);
  };
}
