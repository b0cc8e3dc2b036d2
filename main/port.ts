import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Whether `port` can be bound on 127.0.0.1 right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The port the app listens on: the one remembered from last time (so local integrations keep
 * working across restarts), else the default, else any free port. The choice is remembered.
 */
export async function choosePort(stateFile: string, preferred = 4680, free = isPortFree): Promise<number> {
  let remembered: number | undefined;
  try {
    remembered = JSON.parse(fs.readFileSync(stateFile, 'utf8')).port;
  } catch {
    remembered = undefined;
  }
  for (const candidate of [remembered, preferred]) {
    if (typeof candidate === 'number' && Number.isInteger(candidate) && candidate > 0 && candidate < 65536 && (await free(candidate))) {
      return candidate;
    }
  }
  return 0; // let the OS pick; rememberPort() stores what it picked
}

export function rememberPort(stateFile: string, port: number): void {
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  fs.writeFileSync(stateFile, JSON.stringify({ port }), { mode: 0o600 });
}
