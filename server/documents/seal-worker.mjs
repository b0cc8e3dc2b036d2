// Seals a completed request's PDF in a worker thread, so the API never stalls on PDF work:
// stamps the field values, flattens forms, appends the certificate-of-completion page and signs
// it with PKCS#7 (CMS) using the entity's certificate. Plain JS so it loads the same way under
// node, tsx, vitest and a bundled app; the input/output types live in seal.ts.
import crypto from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import forge from 'node-forge';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';

/** A PKCS#12 bundle for the signer library, protected by a one-time passphrase. */
function toPkcs12(certPem, keyPem) {
  const passphrase = crypto.randomBytes(24).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(keyPem), [forge.pki.certificateFromPem(certPem)], passphrase, { algorithm: '3des' });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), passphrase };
}

/** Keeps only what the standard fonts (WinAnsi) can draw. */
function drawable(font, text) {
  return [...text]
    .map((c) => {
      try {
        font.encodeText(c);
        return c;
      } catch {
        return '?';
      }
    })
    .join('');
}

/**
 * A field's box on its page. Fields are placed on the page as displayed (fractions, origin top
 * left), so a page with /Rotate is mapped back to its unrotated user space, and what is drawn
 * is turned by the same angle to appear upright. `at(dx, dy)` is the user-space point dx to the
 * right and dy up from the box's displayed bottom-left corner.
 */
function fieldFrame(page, f) {
  const { x: ox, y: oy, width: W, height: H } = page.getMediaBox();
  const angle = (((page.getRotation().angle ?? 0) % 360) + 360) % 360;
  const quarter = angle === 90 || angle === 270;
  const dw = quarter ? H : W;
  const dh = quarter ? W : H;
  const u0 = f.x * dw;
  const bottom = (f.y + f.height) * dh;
  const toUser = (u, v) => {
    if (angle === 90) return { x: ox + v, y: oy + u };
    if (angle === 180) return { x: ox + W - u, y: oy + v };
    if (angle === 270) return { x: ox + W - v, y: oy + H - u };
    return { x: ox + u, y: oy + H - v };
  };
  return { w: f.width * dw, h: f.height * dh, rotate: degrees(angle), at: (dx, dy) => toUser(u0 + dx, bottom - dy) };
}

const INK = rgb(0.05, 0.1, 0.3);

function fitText(page, font, text, frame) {
  const safe = drawable(font, text);
  let size = Math.min(frame.h * 0.7, 24);
  while (size > 4 && font.widthOfTextAtSize(safe, size) > frame.w * 0.96) size -= 0.5;
  page.drawText(safe, { ...frame.at(frame.w * 0.02, (frame.h - size) / 2 + size * 0.2), size, font, color: INK, rotate: frame.rotate });
}

/**
 * A typed signature in the handwriting font (Caveat's Latin, then Latin Extended subsets), each
 * character in the first font that has it, else in Times Italic; embedded on first use, subset.
 */
function scriptWriter(pdf, fontFiles) {
  let fonts = null;
  const load = async () => {
    if (fonts) return fonts;
    pdf.registerFontkit(fontkit);
    const custom = [];
    for (const bytes of fontFiles) {
      const font = await pdf.embedFont(bytes, { subset: true });
      custom.push({ font, has: new Set(font.getCharacterSet()) });
    }
    const fallback = await pdf.embedFont(StandardFonts.TimesRomanItalic);
    fonts = { custom, fallback };
    return fonts;
  };
  return async (page, text, frame) => {
    const { custom, fallback } = await load();
    const runs = [];
    for (const c of text) {
      const font = custom.find((f) => f.has.has(c.codePointAt(0)))?.font ?? fallback;
      const glyph = font === fallback ? drawable(fallback, c) : c;
      if (runs.length && runs[runs.length - 1].font === font) runs[runs.length - 1].text += glyph;
      else runs.push({ font, text: glyph });
    }
    const width = (size) => runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
    let size = Math.min(frame.h * 0.8, 28);
    while (size > 4 && width(size) > frame.w * 0.96) size -= 0.5;
    let dx = frame.w * 0.02;
    for (const r of runs) {
      page.drawText(r.text, { ...frame.at(dx, (frame.h - size) / 2 + size * 0.25), size, font: r.font, color: INK, rotate: frame.rotate });
      dx += r.font.widthOfTextAtSize(r.text, size);
    }
  };
}

async function stampFields(pdf, fields, scriptFonts) {
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const writeScript = scriptWriter(pdf, scriptFonts);
  for (const f of fields) {
    if (f.value === null || f.value === '') continue;
    const page = pdf.getPage(f.page - 1);
    const frame = fieldFrame(page, f);
    if (f.type === 'checkbox') {
      if (f.value !== 'true') continue;
      const s = Math.min(frame.w, frame.h) * 0.8;
      const left = (frame.w - s) / 2;
      const low = (frame.h - s) / 2;
      page.drawLine({ start: frame.at(left, low), end: frame.at(left + s, low + s), thickness: 1.5, color: INK });
      page.drawLine({ start: frame.at(left, low + s), end: frame.at(left + s, low), thickness: 1.5, color: INK });
    } else if ((f.type === 'signature' || f.type === 'initials') && f.value.startsWith('data:image/png;base64,')) {
      const png = await pdf.embedPng(Buffer.from(f.value.slice('data:image/png;base64,'.length), 'base64'));
      const scale = Math.min(frame.w / png.width, frame.h / png.height);
      const w = png.width * scale;
      const h = png.height * scale;
      page.drawImage(png, { ...frame.at((frame.w - w) / 2, (frame.h - h) / 2), width: w, height: h, rotate: frame.rotate });
    } else if (f.type === 'signature' || f.type === 'initials') {
      await writeScript(page, f.value, frame);
    } else {
      fitText(page, regular, f.value, frame);
    }
  }
}

async function appendCertificatePage(pdf, input) {
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([595.28, 841.89]);
  let y = 790;
  const line = (text, opts = {}) => {
    const size = opts.size ?? 9;
    const f = opts.f ?? font;
    const width = 495 - (opts.indent ?? 0);
    // Long values (hashes, user agents) wrap onto as many lines as they need.
    let rest = drawable(f, text);
    while (rest.length > 0) {
      let n = rest.length;
      while (n > 1 && f.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
      if (y < 60) {
        page = pdf.addPage([595.28, 841.89]);
        y = 790;
      }
      page.drawText(rest.slice(0, n), { x: 50 + (opts.indent ?? 0), y, size, font: f, color: rgb(...(opts.color ?? [0.1, 0.1, 0.15])) });
      y -= size + 5;
      rest = rest.slice(n);
    }
  };
  line('Certificate of completion', { size: 18, f: bold });
  y -= 6;
  line(`Request: ${input.request.title}`, { size: 11, f: bold });
  line(`Request id: ${input.request.id}`);
  line(`Document: ${input.document.name}`);
  line(`Original document SHA-256: ${input.document.sha256}`);
  line(`Sent by: ${input.request.createdByName ?? input.entityName} on behalf of ${input.entityName}${input.request.sentAt ? ` at ${input.request.sentAt}` : ''}`);
  line(`Completed: ${input.completedAt.toISOString()}`);
  y -= 8;
  line('Signers', { size: 12, f: bold });
  for (const s of input.signers) {
    y -= 2;
    line(`${s.name} <${s.email}> — ${s.role}, ${s.status}`, { f: bold, size: 10 });
    if (s.viewedAt) line(`Viewed: ${s.viewedAt}`, { indent: 12 });
    if (s.signedAt) line(`Signed: ${s.signedAt}`, { indent: 12 });
    if (s.signedIp) line(`IP address: ${s.signedIp}`, { indent: 12 });
    if (s.signedUserAgent) line(`User agent: ${s.signedUserAgent.slice(0, 300)}`, { indent: 12 });
  }
  y -= 8;
  line('Integrity', { size: 12, f: bold });
  line(`Audit trail head (hash chain): ${input.auditHeadHash ?? 'none'}`);
  line(`Sealed with the certificate "${input.entityName} document seal", SHA-256 fingerprint:`);
  line(input.certificate.fingerprint, { indent: 12 });
  line('The PDF carries a PKCS#7 digital signature over its contents; any later change invalidates it.', { color: [0.35, 0.35, 0.4] });
}

const round = (n) => Math.round(n * 100) / 100;

/** Page sizes as displayed (rotation applied), as pdf-info.ts records them for uploads. */
function pageSizes(pdf) {
  return pdf.getPages().map((p) => {
    const { width, height } = p.getSize();
    const angle = (((p.getRotation().angle ?? 0) % 360) + 360) % 360;
    return angle === 90 || angle === 270 ? { width: round(height), height: round(width) } : { width: round(width), height: round(height) };
  });
}

/** Stamps the field values, flattens forms, appends the certificate page and seals with PKCS#7. */
async function seal(input) {
  const pdf = await PDFDocument.load(input.original, { updateMetadata: false });
  try {
    pdf.getForm().flatten();
  } catch {
    // a malformed AcroForm is left as is; the fields are stamped on the page anyway
  }
  await stampFields(pdf, input.fields, input.scriptFonts ?? []);
  await appendCertificatePage(pdf, input);
  pdf.setProducer('Bureau');
  pdf.setModificationDate(input.completedAt);
  pdflibAddPlaceholder({
    pdfDoc: pdf,
    reason: `Signed by all parties: ${input.request.title}`.slice(0, 200),
    contactInfo: '',
    name: `${input.entityName} document seal`,
    location: 'Bureau',
    signingTime: input.completedAt,
    signatureLength: 8192,
  });
  const pages = pageSizes(pdf);
  const unsigned = Buffer.from(await pdf.save({ useObjectStreams: false }));
  const { p12, passphrase } = toPkcs12(input.certificate.certPem, input.certificate.keyPem);
  return { pdf: await new SignPdf().sign(unsigned, new P12Signer(p12, { passphrase }), input.completedAt), pages };
}

seal(workerData).then(
  ({ pdf, pages }) => parentPort.postMessage({ ok: true, pdf, pages }),
  (err) => parentPort.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
);
