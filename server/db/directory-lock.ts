import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * Who owns a data directory is decided by a lock the kernel releases the instant its holder dies:
 * a listening unix socket. A pid file cannot do this: a killed process stays a zombie (and
 * `kill(pid, 0)` succeeds on it) until it is reaped, and a pid can be reused by anything.
 *
 * On Linux the socket lives in the abstract namespace (no file, nothing left behind by a crash).
 * Elsewhere it is `DATA_DIR/.owner.sock`: a stale file from a dead owner refuses connections and is
 * replaced.
 */
export type DirectoryLock = { release: () => Promise<void> };

function socketPath(dataDir: string): string {
  const real = fs.realpathSync(dataDir);
  if (process.platform === 'linux') return `\0muster-data-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`;
  return path.join(real, '.owner.sock');
}

function listen(server: net.Server, where: string): Promise<'listening' | 'in-use'> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') resolve('in-use');
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve('listening');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(where);
  });
}

function answers(where: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(where);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Take the lock on `dataDir`, or null when a live process holds it. */
export async function tryLockDirectory(dataDir: string): Promise<DirectoryLock | null> {
  const where = socketPath(dataDir);
  const server = net.createServer((socket) => socket.destroy());
  let outcome = await listen(server, where);
  if (outcome === 'in-use' && !where.startsWith('\0') && !(await answers(where))) {
    // A socket file left by a dead owner: nobody answers on it.
    fs.rmSync(where, { force: true });
    outcome = await listen(server, where);
  }
  if (outcome === 'in-use') return null;
  // The lock must not keep the process alive by itself.
  server.unref();
  return { release: () => new Promise((resolve) => server.close(() => resolve())) };
}
