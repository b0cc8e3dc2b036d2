import type { Logger } from 'pino';
import type { BackgroundLoops } from './context.js';

/** Background work on timers; a tick never overlaps itself, and errors are logged, not thrown. */
export function createLoops(log: Logger, enabled: boolean): BackgroundLoops {
  const loops: { name: string; tick: () => Promise<void> | void; timer?: NodeJS.Timeout; running?: Promise<void> }[] = [];
  let stopped = false;
  const stopping = new AbortController();
  const run = async (l: (typeof loops)[number]) => {
    if (l.running) return l.running;
    l.running = (async () => {
      try {
        await l.tick();
      } catch (err) {
        log.error({ err, loop: l.name }, 'background loop failed');
      } finally {
        l.running = undefined;
      }
    })();
    return l.running;
  };
  return {
    add(name, intervalMs, tick) {
      const l: (typeof loops)[number] = { name, tick };
      loops.push(l);
      if (enabled && !stopped) {
        l.timer = setInterval(() => void run(l), intervalMs);
        l.timer.unref();
      }
    },
    signal: stopping.signal,
    async runAll() {
      for (const l of loops) await run(l);
    },
    async stop() {
      stopped = true;
      stopping.abort();
      for (const l of loops) clearInterval(l.timer);
      await Promise.all(loops.map((l) => l.running));
    },
  };
}
