// `npm run server`: the headless server (server/cli.ts) as plain JavaScript, from the build
// `npm start` runs too (scripts/server-bundle.mjs), so that a start compiles no TypeScript.
// When the server's sources changed since the last build, this start runs them under tsx as
// before (a build takes seconds, more than tsx's compilation) while a detached process builds
// them for the next start.
import { pathToFileURL } from 'node:url';
import { buildInBackground, currentServerBundle } from './server-bundle.mjs';

const entry = currentServerBundle();
if (entry) {
  // As `npm start` runs it (node --enable-source-maps): stack traces name the sources.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(entry).href);
} else {
  buildInBackground();
  await import('tsx'); // as `node --import tsx`
  await import('../server/cli.ts');
}
