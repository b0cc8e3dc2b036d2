/**
 * The process that started us, read when this module is first evaluated — import it before
 * anything slow. Read later (once the server is up), a launcher killed in the meantime is already
 * gone: the orphan check would compare init with init and never fire (that was a flaky hang).
 */
const launcherPid = process.ppid;

/**
 * How a server process started from a command line ends: on SIGINT, SIGTERM or SIGHUP, when the
 * launcher's IPC channel closes (npm start), or when it is orphaned (`npm run …` runs it under
 * `sh -c`, which dies of a SIGTERM to npm without passing it on) — closing first, and never
 * kept alive by a close that hangs. Call it before telling anyone the server is ready.
 */
export function stopOnExit(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    void close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  if (process.send) process.once('disconnect', stop);
  const orphaned = () => process.ppid !== launcherPid;
  if (orphaned()) return stop();
  setInterval(() => orphaned() && stop(), 250).unref();
}
