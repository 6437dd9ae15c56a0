import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterHomeFor } from './cluster-home.ts';
import { destroyEmbeddedData } from './embedded-destroy.ts';
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

describe('crash-safe start', () => {
  const restartDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-restart-'));
  fs.chmodSync(restartDir, 0o755);
  afterAll(() => fs.rmSync(restartDir, { recursive: true, force: true }));

  const parents: ChildProcess[] = [];
  afterAll(() => parents.forEach((p) => p.kill('SIGKILL')));

  /**
   * The app as a service manager runs it: its own process group, killed whole with SIGKILL. Its
   * parent (perl, which never reaps) keeps the killed app a zombie, as a slow supervisor does: the
   * case where "a process with this pid exists" wrongly said the app was still running.
   */
  function startGroup(dir: string): Promise<{ pid: number }> {
    return new Promise((resolve, reject) => {
      const holder = [process.execPath, '--import', 'tsx', path.join(import.meta.dirname, 'test-fixtures', 'hold-embedded.ts'), dir];
      const parent = spawn('perl', ['-e', '$| = 1; my $p = fork(); if (!$p) { setpgrp(0, 0); exec @ARGV; } print "PID $p\n"; sleep 600;', ...holder], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      parents.push(parent);
      let err = '';
      let pid = 0;
      parent.stderr.on('data', (d: Buffer) => (err += d.toString()));
      parent.stdout.on('data', (d: Buffer) => {
        const text = d.toString();
        pid ||= Number(/PID (\d+)/.exec(text)?.[1] ?? 0);
        if (text.includes('READY')) {
          if (pid > 1) resolve({ pid });
          else reject(new Error('no pid from the parent')); // never signal group 0: that is our own
        }
        if (/failed|Error/.test(text)) reject(new Error(`start refused: ${text.trim()}`));
      });
      parent.on('exit', () => reject(new Error(`start refused: ${err.trim().split('\n').slice(-3).join(' ')}`)));
      setTimeout(() => reject(new Error(`no start within 30 s: ${err.trim().split('\n').slice(-3).join(' ')}`)), 30_000).unref();
    });
  }

  const isZombie = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
    } catch {
      return false;
    }
  };

  it('starts 20 times in a row, each 100 ms after a kill -9 of the whole process group', async () => {
    let refused = 0;
    let group = await startGroup(restartDir);
    for (let i = 0; i < 20; i++) {
      process.kill(-group.pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 100));
      if (process.platform === 'linux') expect(isZombie(group.pid)).toBe(true);
      try {
        group = await startGroup(restartDir);
      } catch (err) {
        refused += 1;
        throw err;
      }
    }
    process.kill(-group.pid, 'SIGKILL');
    console.log(`restarts after kill -9: 20 tried, ${refused} refused`);
    expect(refused).toBe(0);
  }, 180_000);

  it('a reused pid in postmaster.pid neither blocks the start nor gets signalled', async () => {
    // An unrelated live process now has the pid the crashed postgres had.
    const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
    let signalled: string | null = null;
    bystander.on('exit', (_code, signal) => (signalled = signal));
    const group = await startGroup(restartDir);
    process.kill(-group.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    const pidFile = path.join(restartDir, 'pg', 'postmaster.pid');
    const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
    lines[0] = String(bystander.pid);
    fs.writeFileSync(pidFile, lines.join('\n'));
    // A pid file from the old ownership scheme, naming a live process, is ignored too.
    fs.writeFileSync(path.join(restartDir, 'owner.pid'), String(bystander.pid));

    const db = await startEmbeddedDatabase({ dataDir: restartDir, preferredPort: 56100, role: 'app', log: () => {} });
    try {
      expect(db.ownedByUs).toBe(true);
      expect(await query(db.url, 'select v from crash_probe limit 1')).toEqual([{ v: 'committed before the crash' }]);
      expect(bystander.exitCode).toBeNull();
      expect(signalled).toBeNull();
    } finally {
      await db.stop();
      bystander.kill();
    }
  }, 60_000);

  it.runIf(process.getuid?.() === 0)(
    'runs as root with DATA_DIR under a private (0700) parent; deleting DATA_DIR deletes its database',
    async () => {
      const privateParent = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-private-')); // mode 0700, like mktemp -d
      const dir = path.join(privateParent, 'data');
      const home = clusterHomeFor(dir);
      const dataId = path.join(dir, 'cluster-id');
      const homeId = path.join(home, 'muster-cluster-id');
      const start = (logs: string[] = []) => startEmbeddedDatabase({ dataDir: dir, preferredPort: 56100, role: 'app', log: (m) => logs.push(m) });
      try {
        const db = await start();
        try {
          await query(db.url, "create table probe (v text); insert into probe values ('a student record')");
          expect(fs.realpathSync(path.join(dir, 'pg'))).toBe(home);
        } finally {
          await db.stop();
        }
        expect(fs.readFileSync(homeId, 'utf8')).toBe(fs.readFileSync(dataId, 'utf8'));

        // An install from before the identity files: opened as before, and given them.
        fs.rmSync(dataId);
        fs.rmSync(homeId);
        const again = await start();
        try {
          expect(await query(again.url, 'select v from probe')).toEqual([{ v: 'a student record' }]);
        } finally {
          await again.stop();
        }
        const id = fs.readFileSync(dataId, 'utf8');
        expect(fs.readFileSync(homeId, 'utf8')).toBe(id);

        // A link to a home that holds another directory's identity: never opened.
        fs.rmSync(dataId);
        fs.writeFileSync(dataId, 'another-directory\n');
        await expect(start()).rejects.toThrow(/belongs to another data directory/);
        fs.rmSync(dataId);
        fs.linkSync(homeId, dataId);

        // Moved, not deleted: it still opens there, and a new DATA_DIR at the old path leaves its database alone…
        const moved = path.join(privateParent, 'elsewhere', 'data');
        fs.mkdirSync(path.dirname(moved));
        fs.renameSync(dir, moved);
        const there = await startEmbeddedDatabase({ dataDir: moved, preferredPort: 56100, role: 'app', log: () => {} });
        await there.stop();
        await expect(start()).rejects.toThrow(/still holds its identity file/);
        // … also when its identity file is a copy (another filesystem): the home knows where it was started…
        fs.rmSync(path.join(moved, 'cluster-id'));
        fs.writeFileSync(path.join(moved, 'cluster-id'), id);
        await expect(start()).rejects.toThrow(/elsewhere\/data links to it/);
        // … and a renamed sibling (never started since) is found by its link.
        const renamed = path.join(privateParent, 'data.old');
        fs.renameSync(moved, renamed);
        await expect(start()).rejects.toThrow(/data\.old links to it/);
        expect(fs.existsSync(path.join(home, 'PG_VERSION'))).toBe(true);
        expect(fs.existsSync(path.join(dir, 'pg-password'))).toBe(false); // the refused start leaves no password behind
        fs.rmSync(dir, { recursive: true });
        fs.renameSync(renamed, dir);

        // Deleted (decision 036): the next start at the same path removes the old database and starts empty.
        fs.rmSync(dir, { recursive: true });
        const logs: string[] = [];
        const fresh = await start(logs);
        try {
          expect(await query(fresh.url, "select to_regclass('probe') as t")).toEqual([{ t: null }]);
        } finally {
          await fresh.stop();
        }
        expect(logs.filter((l) => l.startsWith(`Removed the database files in ${home}`))).toHaveLength(1);
        expect(fs.readFileSync(homeId, 'utf8')).not.toBe(id);

        // npm run db:destroy: the linked home goes with DATA_DIR.
        const destroyed = await destroyEmbeddedData({ dataDir: dir, confirm: async () => true, log: () => {} });
        expect(destroyed?.remove.map((r) => r.path)).toContain(home);
        expect(fs.existsSync(home)).toBe(false);
        expect(fs.existsSync(dir)).toBe(false);
      } finally {
        fs.rmSync(privateParent, { recursive: true, force: true });
        if (home.startsWith('/var/lib/muster/pg-')) fs.rmSync(home, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
