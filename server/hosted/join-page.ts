// `GET /join?code=…`: where an invitation mail points. A small public page on the hosted instance
// (the person has no Bureau yet): her code, this instance's address and what to install. It reads
// nothing from the store — the code is checked only when Bureau redeems it.
import type { RequestHandler } from 'express';
import { VERSION } from '../version.js';
import type { HostedContext } from './context.js';
import { normaliseCode } from './codes.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The code as it was shown (`XXXXX-XXXXX`), or null for anything that is not one. */
function shownCode(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  const code = normaliseCode(raw);
  return code.length === 10 ? `${code.slice(0, 5)}-${code.slice(5)}` : null;
}

export function renderJoinPage(base: string, code: string | null): string {
  const codeLine = code ? `<p class="code">Your invitation code: <strong>${escapeHtml(code)}</strong></p>` : '<p>Open the link from your invitation e-mail, or ask the person who invited you for your code.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>Join a business on Bureau</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1e293b}.code strong{font:1.4em ui-monospace,monospace;letter-spacing:.05em}code{font-size:.95em}ol li{margin:.4rem 0}footer{margin-top:2rem;color:#64748b;font-size:.9em}</style>
</head>
<body>
<main>
<h1>You are invited to work together on Bureau</h1>
${codeLine}
<ol>
<li>Install Bureau on your computer (the desktop app, from whoever runs your business's Bureau, or <code>npm start</code> in its folder).</li>
<li>On its first screen choose <strong>Accept an invitation</strong>.</li>
<li>Enter this address: <code>${escapeHtml(base)}</code>, the code above, your e-mail (the one this invitation was sent to), your name and a password of your choice.</li>
</ol>
<p>The code works once, for 7 days from when it was sent. Your password is yours: use the same one on every device you add later.</p>
</main>
<footer>Bureau ${escapeHtml(VERSION)}</footer>
</body>
</html>
`;
}

export function joinPage(h: HostedContext): RequestHandler {
  return (req, res) => {
    const base = h.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.setHeader('cache-control', 'no-store');
    res.type('html').send(renderJoinPage(base, shownCode(req.query.code)));
  };
}
