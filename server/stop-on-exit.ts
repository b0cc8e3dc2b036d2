/**
 * How a server process started from a command line ends: on SIGINT, SIGTERM or SIGHUP, when the
 * launcher's IPC channel closes (npm start), or when it is orphaned (`npm run …` runs it under
 * `sh -c`, which dies of a SIGTERM to npm without passing it on) — closing first, and never
 * kept alive by a close that hangs.
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
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 250).unref();
}
