import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from './embedded.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-crash-'));
fs.chmodSync(dataDir, 0o755);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function startHolder(): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'test-fixtures', 'hold-embedded.ts'), dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve({ pid: child.pid! }));
    child.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
}

async function query(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('listens on loopback only, never on 5432, with no unix socket', async () => {
    const holder = await startHolder();
    const port = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    expect(port).not.toBe(5432);
    // A CLI borrows the server the app owns instead of starting a second one.
    const borrowed = await startEmbeddedDatabase({ dataDir, preferredPort: 56100, role: 'cli', log: () => {} });
    expect(borrowed.ownedByUs).toBe(false);
    const [settings] = await query(borrowed.url, "select current_setting('listen_addresses') as l, current_setting('unix_socket_directories') as u");
    expect(settings).toEqual({ l: '127.0.0.1', u: '' });
    // A second app on the same data directory is refused while the first is alive.
    await expect(startEmbeddedDatabase({ dataDir, preferredPort: 56100, role: 'app', log: () => {} })).rejects.toThrow(/already running/);

    // Crash: kill -9 the owner. Postgres is orphaned, holding the port and directory.
    process.kill(holder.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const restarted = await startEmbeddedDatabase({ dataDir, preferredPort: 56100, role: 'app', log: () => {} });
    try {
      expect(restarted.ownedByUs).toBe(true);
      expect(await query(restarted.url, 'select v from crash_probe')).toEqual([{ v: 'committed before the crash' }]);
    } finally {
      await restarted.stop();
    }
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 60_000);
});
