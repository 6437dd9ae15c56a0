import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { insertUser } from '../modules/auth/service.ts';
import { createTestDatabase } from '../test/helpers.ts';
import { createFieldCipher } from './field-cipher.ts';
import { loggerOptions, safeError } from './logging.ts';

/** A failed SQL was once logged with its parameters. Nothing personal may reach the log. */
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const logged = () => lines.join('\n');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
beforeAll(async () => {
  database = await createTestDatabase();
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url };
  app = await buildApp(
    { db: database.db, config, cipher: createFieldCipher(randomBytes(32)) },
    { webRoot: '/nonexistent', logger: loggerOptions('info', capture) },
  );
  // A handler whose SQL fails with a student's data as parameters, as a bug in any service would.
  app.get('/api/__test/failing-sql', { config: { public: true } }, async () => {
    await database.db.execute(
      sql`insert into students (first_name, last_name, email, phone) values (${'Aaliyah'}, ${'Johnson'}, ${'aaliyah.j@students.example.edu'}, ${'555-301-2201'})`,
    );
    await database.db.execute(
      sql`insert into students (id, first_name, last_name, email) select id, first_name, last_name, email from students where email = ${'aaliyah.j@students.example.edu'}`,
    );
    return 'unreachable';
  });
  app.get('/api/__test/bad-input', { config: { public: true } }, async () => database.db.execute(sql`select ${'Tomás Herrera 2026-02-30'}::int`));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('the server log', () => {
  it('shows a failed SQL without its parameters or the values PostgreSQL echoes back', async () => {
    lines.length = 0;
    expect((await app.inject({ url: '/api/__test/failing-sql' })).statusCode).toBe(409);
    expect((await app.inject({ url: '/api/__test/bad-input?search=Aaliyah%20Johnson' })).statusCode).toBe(500);
    const text = logged();
    for (const personal of ['Aaliyah', 'Johnson', 'aaliyah.j@', '555-301-2201', 'Tomás', 'Herrera', '2026-02-30']) expect(text).not.toContain(personal);
    const error = lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string; err?: Record<string, unknown> }).find((l) => l.msg === 'unhandled error')!;
    // Still useful: the kind, the SQL (placeholders only), the PostgreSQL code and where it happened.
    expect(error.err).toMatchObject({ type: 'DrizzleQueryError', cause: { code: '22P02' } });
    expect(String(error.err!.message)).toMatch(/^Failed query: select \$1::int \(1 parameter value not logged\)$/);
    expect(String(error.err!.stack)).toMatch(/\n\s+at /);
    // One line for the request: its id, the route pattern and the status, no query values.
    const requestLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(requestLines).toHaveLength(2);
    expect(requestLines[1]).toMatchObject({ method: 'GET', route: '/api/__test/bad-input', status: 500, reqId: error.reqId });
  });

  it('writes one line per request with its request id, honouring and returning x-request-id', async () => {
    lines.length = 0;
    const res = await app.inject({ url: '/api/students/12345?search=Aaliyah', headers: { 'x-request-id': 'lb-7f3a' } });
    expect(res.headers['x-request-id']).toBe('lb-7f3a');
    const own = await app.inject({ url: '/api/setup/status' });
    expect(own.headers['x-request-id']).toBeTruthy();
    const requestLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(requestLines).toEqual([
      expect.objectContaining({ reqId: 'lb-7f3a', method: 'GET', route: '/api/students/:id', status: 401 }),
      expect.objectContaining({ reqId: own.headers['x-request-id'], route: '/api/setup/status', status: 200 }),
    ]);
    expect(lines).toHaveLength(2);
    expect(logged()).not.toContain('Aaliyah');
  });

  it('never holds request bodies, passwords or cookies', async () => {
    await insertUser(database.db, {
      email: 'dana.w@example.edu',
      password: 'correct horse battery',
      role: 'instructor',
      firstName: 'Dana',
      lastName: 'Whitfield',
    });
    lines.length = 0;
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'dana.w@example.edu', password: 'correct horse battery' } });
    const cookie = res.cookies.find((c) => c.name === 'muster_session')!.value;
    await app.inject({ url: '/api/auth/user', headers: { cookie: `muster_session=${cookie}` } });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'dana.w@example.edu', password: 'wrong horse' } });
    const text = logged();
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of ['correct horse', 'wrong horse', 'dana.w@', cookie]) expect(text).not.toContain(secret);
  });

  it('safeError drops query parameters, PostgreSQL details and unknown fields at every depth', () => {
    const pgErr = Object.assign(new Error('duplicate key value violates unique constraint "students_email_idx"'), {
      code: '23505',
      constraint: 'students_email_idx',
      detail: 'Key (email)=(ana@x.edu) already exists.',
      where: 'SQL statement',
    });
    const drizzle = Object.assign(new Error(`Failed query: insert into students (email) values ($1)\nparams: ana@x.edu`), {
      query: 'insert into students (email) values ($1)',
      params: ['ana@x.edu'],
      cause: pgErr,
    });
    const out = JSON.stringify(safeError(drizzle));
    expect(out).not.toContain('ana@x.edu');
    expect(out).toContain('students_email_idx');
    expect(safeError(safeError(drizzle))).toEqual(safeError(drizzle));
  });
});
