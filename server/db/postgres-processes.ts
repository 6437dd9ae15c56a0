import fs from 'node:fs';
import path from 'node:path';

/**
 * Proof that a process is our PostgreSQL on our directory, read from /proc: its executable is
 * `postgres`, it is not a zombie, and its working directory (postgres changes into its data
 * directory at start, and backends inherit it) is our data directory. A pid number alone proves
 * nothing: after a crash it may be a zombie or belong to an unrelated process.
 */
export function procAvailable(): boolean {
  return process.platform === 'linux' && fs.existsSync('/proc/self/cwd');
}

function isOurPostgres(pid: number, realPgDir: string): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name, is the state; Z is a zombie.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
    if (!path.basename(fs.readlinkSync(`/proc/${pid}/exe`)).startsWith('postgres')) return false;
    return fs.readlinkSync(`/proc/${pid}/cwd`) === realPgDir;
  } catch {
    return false; // gone, or not ours to read
  }
}

/** Every live postgres process (postmaster and backends) whose data directory is `pgDir`. */
export function postgresProcessesOn(pgDir: string): number[] {
  let realPgDir: string;
  try {
    realPgDir = fs.realpathSync(pgDir);
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid !== process.pid && isOurPostgres(pid, realPgDir)) pids.push(pid);
  }
  return pids;
}

/** Signal only processes proven, at the moment of signalling, to be our postgres on `pgDir`. */
export function signalOurPostgres(pgDir: string, pids: number[], signal: NodeJS.Signals): void {
  const realPgDir = fs.realpathSync(pgDir);
  for (const pid of pids) {
    if (!isOurPostgres(pid, realPgDir)) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // exited in between
    }
  }
}
