import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { ROLES, type Role } from '../../common/roles.ts';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { createDb, type Db } from '../db/client.ts';
import { fixedClock, systemClock, type Clock } from '../lib/clock.ts';
import { insertUser } from '../modules/auth/service.ts';
import { createFieldCipher, type FieldCipher } from '../lib/field-cipher.ts';
import { buildQrSession, meetingDates } from './factories.ts';

/** A database of its own for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ db: Db; url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `muster_t_${inject('pgTemplate').replace('muster_tpl_', '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 5);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.$client.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  clock: Clock;
  close: () => Promise<void>;
  /** Create a user of this role and return a cookie header signed in as them. */
  signedIn: (
    role: Role,
    overrides?: Partial<{ email: string; password: string; firstName: string; lastName: string }>,
  ) => Promise<{ cookie: string; userId: number; email: string }>;
};

let counter = 0;

export async function createTestApp(opts: { clock?: Clock; config?: Partial<Config>; cipher?: FieldCipher } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  // A data directory of its own (backups land there), never the checkout's ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-app-'));
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url, dataDir, ...opts.config };
  const clock = opts.clock ?? systemClock;
  const app = await buildApp(
    { db: database.db, config, clock, cipher: opts.cipher ?? createFieldCipher(randomBytes(32)) },
    { webRoot: '/nonexistent', logger: process.env.TEST_LOG ? { level: 'error' } : false },
  );
  await app.ready();
  return {
    app,
    db: database.db,
    clock,
    close: async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    signedIn: async (role, o = {}) => {
      counter += 1;
      const email = o.email ?? `${role}.${counter}.${randomBytes(3).toString('hex')}@example.edu`;
      const password = o.password ?? 'correct horse battery';
      const userId = await insertUser(database.db, { email, password, role, firstName: o.firstName ?? 'Test', lastName: o.lastName ?? role });
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      return { cookie: sessionCookie(res), userId, email };
    },
  };
}

/** One user without a password per role (e-mail `<role>@<domain>`, first name `firstName`), for walks over every role. */
export async function insertUserPerRole(db: Db, domain: string, firstName: string): Promise<Record<Role, number>> {
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) ids[role] = await insertUser(db, { email: `${role}@${domain}`, password: null, firstName, lastName: role, role });
  return ids;
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'muster_session');
  if (!c) throw new Error('no session cookie set');
  return `muster_session=${c.value}`;
}

export { fixedClock };

/** A multipart/form-data body with one file field (and optional text fields) for app.inject. */
export function multipart(fileName: string, content: Buffer | string, fields: Record<string, string> = {}, fieldName = 'file') {
  const boundary = `----muster${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ),
  );
  parts.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Audit entries for a table, newest last. */
export async function auditEntries(db: Db, tableName: string) {
  const { rows } = await db.execute<{
    action: string;
    record_id: string | null;
    user_id: number | null;
    old_values: Record<string, unknown> | null;
    new_values: Record<string, unknown> | null;
  }>(sql`select action, record_id, user_id, old_values, new_values from audit_logs where table_name = ${tableName} order by id`);
  return rows;
}

/**
 * A QR session ran (and ended) at every meeting of these schedules from–to: the classes took place,
 * so a rostered student without a record is absent, not an unrecorded meeting for review (decision 043).
 */
export async function sessionsRanFor(db: Db, scheduleIds: number[], from: string, to: string): Promise<void> {
  for (const { scheduleId, sessionDate } of await meetingDates(db, scheduleIds, from, to, { withinCourse: true })) {
    const createdAt = new Date(`${sessionDate}T00:00:00Z`);
    await buildQrSession(db, {
      scheduleId,
      tokenSecret: Buffer.from([0]),
      sessionDate,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * 60 * 60 * 1000),
      isActive: false,
    });
  }
}
