import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { MIGRATIONS_FOLDER } from './migrate.ts';

/**
 * A logical backup of the school's data: every table's rows as PostgreSQL COPY text, read in one
 * repeatable-read snapshot, gzip-compressed, with the schema version they belong to. (The embedded
 * server ships no pg_dump, and a system pg_dump older than the server refuses to dump it; our
 * schema is exactly the committed migrations, so data + migration level is a complete backup.)
 *
 * Restore rebuilds the schema at the backup's migration level, loads the rows, sets sequences,
 * then applies any newer migrations: all in one transaction, so a failed restore changes nothing.
 *
 * File layout (inside gzip): a first line `MUSTER-BACKUP 1`, a JSON line with the header, then per
 * table a line `TABLE <json>` followed by COPY text rows and the terminator `\.`.
 */

const MAGIC = 'MUSTER-BACKUP 1';
// Sign-ins, throttling windows and one-time setup codes are not the school's data: a restore
// signs everyone out rather than bringing back old sessions. The dashboards' per-meeting and
// per-class totals are derived: the triggers on attendance_records rebuild them as its rows are restored.
const SKIPPED_TABLES = new Set(['login_sessions', 'rate_limit_counters', 'setup_codes', 'meeting_status_totals', 'student_class_totals']);

type BackupHeader = { createdAt: string; migrations: number[]; tables: { name: string; rows: number }[] };
type BackupSummary = { file: string; bytes: number; createdAt: Date; tables: number; rows: number; ms: number };

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the public schema, parents before children (foreign keys), so rows load in order. */
async function tablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`);
  const { rows: edges } = await client.query<{ child: string; parent: string }>(`
    select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
     where c.contype = 'f' and n.nspname = 'public' and c.conrelid <> c.confrelid`);
  const strip = (n: string) => n.replace(/^"|"$/g, '');
  const parents = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) parents.get(strip(e.child))?.add(strip(e.parent));
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const p of parents.get(name) ?? []) visit(p);
    visiting.delete(name);
    ordered.push(name);
  };
  for (const t of tables) visit(t.name);
  return ordered.filter((t) => !SKIPPED_TABLES.has(t));
}

async function columnsOf(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`,
    [table],
  );
  return rows.map((r) => r.name);
}

function writeLine(out: Writable, line: string): Promise<void> {
  return new Promise((resolve, reject) => out.write(line + '\n', (err) => (err ? reject(err) : resolve())));
}

export function backupFileName(now: Date): string {
  return `muster-${now.toISOString().replace(/[:.]/g, '-')}.backup.gz`;
}

/** Write a backup of the database behind `pool` to `file` (written to a temporary name, then renamed). */
export async function writeBackup(pool: pg.Pool, file: string, now: Date = new Date()): Promise<BackupSummary> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const client = await pool.connect();
  let rows = 0;
  let tableCount = 0;
  try {
    // One snapshot for every table: the backup is consistent even while the app writes.
    await client.query('begin transaction isolation level repeatable read read only');
    const { rows: applied } = await client.query<{ created_at: string }>('select created_at::text from drizzle.__drizzle_migrations order by created_at');
    const tables = await tablesInLoadOrder(client);
    const counts: { name: string; rows: number }[] = [];
    for (const name of tables) {
      const { rows: c } = await client.query<{ n: number }>(`select count(*)::int as n from ${quoteIdent(name)}`);
      counts.push({ name, rows: c[0]!.n });
    }
    const header: BackupHeader = { createdAt: now.toISOString(), migrations: applied.map((m) => Number(m.created_at)), tables: counts };
    const body = new PassThrough();
    const written = pipeline(body, createGzip({ level: 6 }), fs.createWriteStream(partial, { mode: 0o600 }));
    await writeLine(body, MAGIC);
    await writeLine(body, JSON.stringify(header));
    for (const name of tables) {
      const columns = await columnsOf(client, name);
      await writeLine(body, `TABLE ${JSON.stringify({ name, columns })}`);
      const copy = client.query(copyTo(`copy ${quoteIdent(name)} (${columns.map(quoteIdent).join(', ')}) to stdout`));
      for await (const chunk of copy) {
        if (!body.write(chunk as Buffer)) await new Promise((r) => body.once('drain', r));
      }
      await writeLine(body, '\\.');
      tableCount += 1;
    }
    rows = counts.reduce((a, c) => a + c.rows, 0);
    body.end();
    await written;
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    client.release();
  }
  fs.renameSync(partial, file);
  return { file, bytes: fs.statSync(file).size, createdAt: now, tables: tableCount, rows, ms: Math.round(performance.now() - started) };
}

/** Lines of a backup file, decompressed. */
function backupLines(file: string): AsyncIterableIterator<string> {
  const raw = fs.createReadStream(file);
  const input = raw.pipe(createGunzip());
  // pipe() does not pass the file's own errors on (missing, unreadable): unhandled, they end the process.
  raw.on('error', (err) => input.destroy(err));
  return readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
}

/** The header of a backup file, checking that it is one. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const lines = backupLines(file);
  try {
    const magic = await lines.next();
    if (magic.done || magic.value !== MAGIC) throw new Error(`${file} is not a Muster backup`);
    const header = await lines.next();
    if (header.done) throw new Error(`${file} is cut short`);
    return JSON.parse(header.value) as BackupHeader;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') throw new Error(`${file} is not a Muster backup (not gzip)`);
    throw err;
  } finally {
    await lines.return?.();
  }
}

/**
 * Replace every table's rows with the backup's, in one transaction. The schema is rebuilt at the
 * backup's migration level, the rows loaded, sequences moved past the highest ids, then newer
 * migrations applied, so a backup from an older version restores into this one.
 */
export async function restoreBackup(pool: pg.Pool, file: string): Promise<{ tables: number; rows: number; ms: number }> {
  const started = performance.now();
  const header = await readBackupHeader(file);
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const known = new Set(migrations.map((m) => m.folderMillis));
  const unknown = header.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0) {
    throw new Error('This backup was made by a newer version of Muster (its schema has migrations this version does not know). Restore it with that version.');
  }
  const level = Math.max(0, ...header.migrations);
  const client = await pool.connect();
  let rows = 0;
  let tables = 0;
  let failed = false;
  try {
    await client.query('begin');
    await client.query('drop schema if exists drizzle cascade');
    await client.query('drop schema public cascade');
    await client.query('create schema public');
    await client.query('create schema drizzle');
    await client.query('create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
    const applyUpTo = async (predicate: (m: (typeof migrations)[number]) => boolean) => {
      for (const m of migrations.filter(predicate)) {
        for (const stmt of m.sql) if (stmt.trim()) await client.query(stmt);
        await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis]);
      }
    };
    await applyUpTo((m) => m.folderMillis <= level);
    // Migrations insert the settings and wizard singletons; the backup brings its own rows.
    if (header.tables.length > 0) await client.query(`truncate ${header.tables.map((t) => quoteIdent(t.name)).join(', ')} cascade`);

    const lines = backupLines(file);
    await lines.next(); // magic
    await lines.next(); // header
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      if (!next.value.startsWith('TABLE ')) throw new Error(`${file} is damaged (expected a table, found other data)`);
      const { name, columns } = JSON.parse(next.value.slice(6)) as { name: string; columns: string[] };
      const copy = client.query(copyFrom(`copy ${quoteIdent(name)} (${columns.map(quoteIdent).join(', ')}) from stdin`));
      const done = new Promise<void>((resolve, reject) => {
        copy.on('finish', resolve);
        copy.on('error', reject);
      });
      done.catch(() => undefined); // awaited below; a failure mid-table must not go unhandled
      let ended = false;
      for (let line = await lines.next(); !line.done; line = await lines.next()) {
        if (line.value === '\\.') {
          ended = true;
          break;
        }
        rows += 1;
        if (!copy.write(line.value + '\n')) await new Promise((r) => copy.once('drain', r));
      }
      if (!ended) throw new Error(`${file} is cut short (in table ${name})`);
      copy.end();
      await done;
      tables += 1;
    }
    // Serial columns continue after the highest restored id.
    const { rows: serials } = await client.query<{ t: string; c: string }>(`
      select table_name as t, column_name as c from information_schema.columns
       where table_schema = 'public' and column_default like 'nextval(%'`);
    for (const s of serials) {
      await client.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quoteIdent(s.c)}) from ${quoteIdent(s.t)}), 1), (select max(${quoteIdent(s.c)}) from ${quoteIdent(s.t)}) is not null)`,
        [`public.${quoteIdent(s.t)}`, s.c],
      );
    }
    await applyUpTo((m) => m.folderMillis > level);
    await client.query('commit');
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A connection that failed mid-COPY is in no state to reuse: closing it rolls everything back.
    client.release(failed);
  }
  return { tables, rows, ms: Math.round(performance.now() - started) };
}
