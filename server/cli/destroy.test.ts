import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tryLockDirectory } from '../db/directory-lock.ts';
import { destroyEmbeddedData } from '../db/embedded-destroy.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-destroy-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** npm run db:destroy, as the operator runs it (stdin is not a terminal here). */
function destroy(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _url, ENCRYPTION_KEY: _key, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'destroy.ts'), ...args], {
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** What a school's DATA_DIR holds (the cluster faked: nothing here starts PostgreSQL). */
function schoolDataDir(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'pg'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pg', 'PG_VERSION'), '18\n');
  fs.writeFileSync(path.join(dir, 'pg-password'), 'secret\n');
  fs.writeFileSync(path.join(dir, 'encryption-key'), 'key\n');
  fs.mkdirSync(path.join(dir, 'backups'));
  fs.writeFileSync(path.join(dir, 'backups', 'muster-2025-01-01T02-00-00Z.backup.gz'), '');
  return dir;
}

describe('npm run db:destroy', () => {
  it('only removes the embedded database: refused with DATABASE_URL', async () => {
    const dir = schoolDataDir('external');
    const run = await destroy({ DATA_DIR: dir, DATABASE_URL: 'postgres://muster@127.0.0.1:5999/muster' }, '--yes');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/only removes the embedded database/);
    expect(fs.existsSync(path.join(dir, 'pg-password'))).toBe(true);
  }, 30_000);

  it('asks for --yes, refuses while the app holds DATA_DIR, then removes DATA_DIR entirely and says what', async () => {
    const dir = schoolDataDir('leaving');
    const unconfirmed = await destroy({ DATA_DIR: dir });
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.out).toContain(path.join(dir, 'encryption-key'));
    expect(unconfirmed.err).toMatch(/Nothing was removed.*--yes/);
    expect(fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'))).toBe(true);

    const lock = await tryLockDirectory(dir); // the running app
    try {
      const running = await destroy({ DATA_DIR: dir }, '--yes');
      expect(running.code).toBe(1);
      expect(running.err).toMatch(/Muster is running on .* Stop it first/);
      expect(fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'))).toBe(true);
    } finally {
      await lock!.release();
    }

    const done = await destroy({ DATA_DIR: dir }, '--yes');
    expect(done.code, done.err).toBe(0);
    for (const removed of ['pg', 'pg-password', 'encryption-key', 'backups']) expect(done.out).toContain(`  ${path.join(dir, removed)}\n`);
    expect(done.out).toContain('backups (1 file)');
    expect(fs.existsSync(dir)).toBe(false);
  }, 60_000);

  it('refuses a DATA_DIR holding files Muster did not make; a missing one has nothing to remove', async () => {
    const dir = schoolDataDir('not-a-data-dir');
    fs.writeFileSync(path.join(dir, 'package.json'), '{}');
    await expect(destroyEmbeddedData({ dataDir: dir, confirm: async () => true, log: () => {} })).rejects.toThrow(/did not make \(package\.json\)/);
    expect(fs.existsSync(path.join(dir, 'pg-password'))).toBe(true);

    const missing = await destroyEmbeddedData({ dataDir: path.join(tmp, 'never-made'), confirm: async () => true, log: () => {} });
    expect(missing?.remove).toEqual([]);
  });
});
