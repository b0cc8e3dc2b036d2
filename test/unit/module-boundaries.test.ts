// The layer rule and module surfaces of server/ (eslint.config.js, docs/ARCHITECTURE.md "Layers")
// fail lint: ESLint's own API lints a line of code as if it were written in a file of server/.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Which of server/'s two boundary policies an import breaks (one rule, boundaries/dependencies, holds both). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages
    .filter((m) => m.ruleId === 'boundaries/dependencies' && m.severity === 2)
    .map((m) => (m.message.startsWith('Another module is used through its index.ts') ? 'surface' : m.message.startsWith('There is no policy allowing') ? 'layer' : m.message));
}

describe('module boundaries in server/', () => {
  it('a deep import into another module fails; its index.ts is fine', async () => {
    expect(await boundaryErrors('server/helpdesk/probe.ts', "import { queueMail } from '../mail/mail.js';\nexport const f = queueMail;\n")).toContain('surface');
    expect(await boundaryErrors('server/helpdesk/probe.ts', "import { queueMail } from '../mail/index.js';\nexport const f = queueMail;\n")).toEqual([]);
  }, 60_000);

  it('an import against the layer order fails: the kernel may not use a module, a module may not use sync', async () => {
    expect(await boundaryErrors('server/http/probe.ts', "import { mailModule } from '../mail/index.js';\nexport const m = mailModule;\n")).toContain('layer');
    expect(await boundaryErrors('server/helpdesk/probe.ts', "import { runCycle } from '../sync/engine.js';\nexport const f = runCycle;\n")).toContain('layer');
    expect(await boundaryErrors('server/sync/probe.ts', "import { write } from '../db/write.js';\nexport const f = write;\n")).toEqual([]);
    // server/'s root files are layered too: context.ts is kernel, modules.ts the app.
    expect(await boundaryErrors('server/context.ts', "import { modules } from './modules.js';\nexport const m = modules;\n")).toContain('layer');
  }, 60_000);
});
