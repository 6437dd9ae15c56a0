import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_BLANK, PASSWORD_COMMON, PASSWORD_PERSONAL, PASSWORD_RULE } from '../../../common/auth.ts';
import { passwordProblem } from '../../lib/password-rules.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/helpers.ts';
import { createSetupCodeIfNeeded } from './service.ts';

const owner = { email: 'morgan.reyes@school.example', firstName: 'Morgan', lastName: 'Reyes' };

describe('the password rule', () => {
  it.each([
    ['eight spaces', '        ', PASSWORD_BLANK],
    ['tabs and spaces', ' \t  \t    ', PASSWORD_BLANK],
    ['too short', 'abc123', PASSWORD_RULE],
    ['a common password', 'password', PASSWORD_COMMON],
    ['a common password in capitals', 'Sunshine', PASSWORD_COMMON],
    ['another from the list', 'qwertyuiop', PASSWORD_COMMON],
    ['the user’s own e-mail', 'morgan.reyes@school.example', PASSWORD_PERSONAL],
    ['the e-mail’s local part', 'MORGAN.REYES', PASSWORD_PERSONAL],
    ['containing the first name', 'i am morgan 2026', PASSWORD_PERSONAL],
    ['containing the last name', 'Reyes-family-rocks', PASSWORD_PERSONAL],
  ])('refuses %s', async (_what, password, reason) => {
    expect(await passwordProblem(password, owner)).toBe(reason);
  });

  it.each(['correct horse battery staple', 'a long enough secret', 'Tr0ub4dor&3x!'])('accepts %s', async (password) => {
    expect(await passwordProblem(password, owner)).toBeNull();
  });
});

describe('every place a password is set uses it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('first-run setup refuses weak passwords with a 400 naming the field password', async () => {
    const setupCode = await createSetupCodeIfNeeded(t.db);
    const person = { setupCode, firstName: 'Morgan', lastName: 'Reyes', email: owner.email };
    for (const [password, message] of [
      ['        ', PASSWORD_BLANK],
      ['password', PASSWORD_COMMON],
      [owner.email, PASSWORD_PERSONAL],
      ['morgan reyes rules', PASSWORD_PERSONAL],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...person, password } });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'password', message }]);
    }
    expect((await t.db.execute(sql`select 1 from users`)).rows).toHaveLength(0);
    // The code still works after the refusals.
    const ok = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...person, password: 'a long enough secret' } });
    expect(ok.statusCode).toBe(201);
  });

  it('a set-password link refuses weak passwords and stays usable', async () => {
    const { cookie } = await t.signedIn('super_admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie },
      payload: { firstName: 'Nina', lastName: 'Newhire', email: 'nina.newhire@school.example', username: 'nnewhire', role: 'instructor' },
    });
    expect(created.statusCode).toBe(201);
    const token = new URL(created.json().setPasswordUrl).searchParams.get('token')!;
    for (const [password, message] of [
      ['        ', PASSWORD_BLANK],
      ['iloveyou', PASSWORD_COMMON],
      ['nina.newhire', PASSWORD_PERSONAL],
      ['newhire forever', PASSWORD_PERSONAL],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password } });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'password', message }]);
    }
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'a long enough secret' } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('npm run user:create', () => {
  it('refuses a common password and creates the user with a good one', async () => {
    const database = await createTestDatabase();
    try {
      const run = (password: string) =>
        promisify(execFile)(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(import.meta.dirname, '..', '..', 'cli', 'user-create.ts'),
            '--email',
            'cli.admin@school.example',
            '--password',
            password,
            '--role',
            'it_admin',
            '--first-name',
            'Casey',
            '--last-name',
            'Lee',
          ],
          { env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'test' } },
        ).then(
          (r) => ({ code: 0, out: r.stdout + r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
        );
      const weak = await run('password1');
      expect(weak.code).toBe(1);
      expect(weak.out).toContain(`password: ${PASSWORD_COMMON}`);
      const good = await run('a long enough secret');
      expect(good.out).toContain('Created it_admin cli.admin@school.example');
      expect(good.code).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
