import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../db/client.ts';
import { startEmbeddedDatabase } from '../db/embedded.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

/**
 * One PostgreSQL server for the run: TEST_DATABASE_URL when set, else an embedded one in a
 * temporary directory. A template database is migrated once; every test file clones it.
 */
export default async function setup(project: TestProject) {
  // The compiled server, once for the run: process tests (production start, several instances)
  // run dist/server/main.js, and two of them building it at once could read a half-written file.
  const build = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'build-server.mjs')], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`The server build failed: ${build.stderr}`);
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-test-'));
    fs.chmodSync(tmp, 0o755);
    const embedded = await startEmbeddedDatabase({ dataDir: tmp, preferredPort: 55432, role: 'app', log: () => {} });
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `muster_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const tplUrl = new URL(adminUrl);
  tplUrl.pathname = `/${template}`;
  const db = createDb(tplUrl.toString(), 2);
  await migrateDatabase(db);
  await db.$client.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    // Drop every database this run made, then the server if we started it.
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname = $2`, [
      `muster_t_${process.pid}_%`,
      template,
    ]);
    for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`).catch(() => {});
    await admin.end();
    await stopEmbedded?.();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}
