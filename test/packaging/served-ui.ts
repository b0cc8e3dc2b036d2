// The renderer as the packaged app holds it, served the two ways it is served — by the desktop's
// own server and by a hosted instance's signing pages — and opened in Chromium.
import fs from 'node:fs';
import path from 'node:path';
import asar from '@electron/asar';
import { chromium, type Browser } from '@playwright/test';
import playwrightConfig from '../../playwright.config.js';

/** Copies `out/renderer` out of app.asar into `dest` (its index.html and assets), as the app reads it. */
export function extractRenderer(asarFile: string, entries: string[], dest: string): string {
  for (const entry of entries.filter((e) => e.startsWith('/out/renderer/'))) {
    const stat = asar.statFile(asarFile, entry.slice(1), false) as { files?: unknown };
    if (stat.files !== undefined) continue;
    const target = path.join(dest, entry);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, asar.extractFile(asarFile, entry.slice(1)));
  }
  return path.join(dest, 'out', 'renderer');
}

/** Debian's Chromium with the e2e suite's launch options (playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(playwrightConfig.use?.launchOptions);
}
