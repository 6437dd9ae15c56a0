import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IT_ADMIN_SUPER, LAST_SUPER_ADMIN, OWN_ROLE } from '../../../common/users.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let sa: { cookie: string; userId: number };
let it_: { cookie: string; userId: number };
beforeAll(async () => {
  t = await createTestApp();
  sa = await t.signedIn('super_admin');
  it_ = await t.signedIn('it_admin');
});
afterAll(() => t.close());

const newUser = (n: string, role = 'instructor') => ({ firstName: 'Nia', lastName: n, email: `${n}@school.edu`, username: n, role });

describe('users', () => {
  it('lists users without password material', async () => {
    const res = await t.app.inject({ url: '/api/users', headers: { cookie: it_.cookie } });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.length).toBe(2);
    expect(Object.keys(list[0]).sort()).toEqual(['email', 'firstName', 'id', 'isActive', 'lastLogin', 'lastName', 'role', 'username']);
    expect(list.every((u: { lastLogin: string | null }) => typeof u.lastLogin === 'string')).toBe(true);
  });

  it('creates a user with a one-time set-password link that works once', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie: it_.cookie, host: 'school.test' }, payload: newUser('nia') });
    expect(res.statusCode).toBe(201);
    const { user, setPasswordUrl } = res.json();
    expect(user).toMatchObject({ email: 'nia@school.edu', role: 'instructor', isActive: true });
    expect(setPasswordUrl).toMatch(/^http:\/\/school\.test\/set-password\?token=/);
    const token = new URL(setPasswordUrl).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nia@school.edu', password: 'anything at all' } })).statusCode).toBe(
      401,
    );
    const set = await t.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'my new password' } });
    expect(set.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nia@school.edu', password: 'my new password' } })).statusCode).toBe(
      200,
    );
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password: 'another password' } });
    expect(again.statusCode).toBe(400);
    expect((await auditEntries(t.db, 'users')).some((a) => a.action === 'Create' && a.new_values?.email === 'nia@school.edu')).toBe(true);
  });

  it('validates every required field and names it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: sa.cookie },
      payload: { firstName: '', email: 'bad', role: 'wizard' },
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['email', 'firstName', 'lastName', 'role', 'username']);
  });

  it('answers 409 naming the field for a taken e-mail or username', async () => {
    const dupEmail = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: sa.cookie },
      payload: { ...newUser('other'), email: 'NIA@school.edu' },
    });
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().errors[0].field).toBe('email');
    const dupName = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie: sa.cookie },
      payload: { ...newUser('other2'), username: 'NIA' },
    });
    expect(dupName.statusCode).toBe(409);
    expect(dupName.json().errors[0].field).toBe('username');
  });

  it('edits a user and audits old and new values', async () => {
    const created = (
      await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie: sa.cookie }, payload: newUser('omar', 'support_staff') })
    ).json().user;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${created.id}`,
      headers: { cookie: sa.cookie },
      payload: { ...newUser('omar', 'it_admin'), lastName: 'Omari' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'it_admin', lastName: 'Omari' });
    const last = (await auditEntries(t.db, 'users')).at(-1)!;
    expect(last).toMatchObject({
      action: 'Update',
      old_values: { role: 'support_staff', lastName: 'omar' },
      new_values: { role: 'it_admin', lastName: 'Omari' },
    });
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/999999', headers: { cookie: sa.cookie }, payload: newUser('ghost') })).statusCode).toBe(404);
  });

  it('keeps it_admins away from super_admins', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie: it_.cookie }, payload: newUser('boss', 'super_admin') })).json().message,
    ).toBe(IT_ADMIN_SUPER);
    const promote = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${it_.userId}`,
      headers: { cookie: it_.cookie },
      payload: { ...newUser('x', 'super_admin') },
    });
    expect(promote.statusCode).toBe(403);
    const editSa = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${sa.userId}`,
      headers: { cookie: it_.cookie },
      payload: newUser('sa', 'super_admin'),
    });
    expect(editSa.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/${sa.userId}`, headers: { cookie: it_.cookie } })).statusCode).toBe(403);
  });

  it('does not let a user change their own role, nor remove the last active super_admin', async () => {
    const own = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${it_.userId}`,
      headers: { cookie: it_.cookie },
      payload: newUser('me', 'support_staff'),
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(OWN_ROLE);
    const second = await t.signedIn('super_admin');
    // Demote the first super_admin: allowed, another one remains.
    const demote = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${sa.userId}`,
      headers: { cookie: second.cookie },
      payload: newUser('first', 'it_admin'),
    });
    expect(demote.statusCode).toBe(200);
    // The remaining super_admin cannot deactivate themselves, and nobody may demote or deactivate them.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/${second.userId}`, headers: { cookie: second.cookie } })).statusCode).toBe(400);
    const third = await t.signedIn('super_admin');
    await t.app.inject({ method: 'DELETE', url: `/api/users/${third.userId}`, headers: { cookie: second.cookie } });
    const last = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${second.userId}`,
      headers: { cookie: third.cookie },
      payload: newUser('second', 'it_admin'),
    });
    expect(last.statusCode).toBe(401); // third was deactivated and signed out
    const { rows } = await t.db.$client.query("select count(*)::int as n from users where role = 'super_admin' and is_active");
    expect(rows[0].n).toBe(1);
    const reply = await t.app.inject({ method: 'DELETE', url: `/api/users/${second.userId}`, headers: { cookie: second.cookie } });
    expect(reply.json().message).not.toBe(LAST_SUPER_ADMIN); // own account message comes first
  });

  it('deactivates instead of deleting, signs the user out, and can reactivate', async () => {
    const victim = await t.signedIn('support_staff');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/users/${victim.userId}`, headers: { cookie: it_.cookie } });
    expect(del.statusCode).toBe(200);
    expect(del.json().isActive).toBe(false);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: victim.cookie } })).statusCode).toBe(401);
    const list = (await t.app.inject({ url: '/api/users', headers: { cookie: it_.cookie } })).json();
    expect(list.find((u: { id: number }) => u.id === victim.userId).isActive).toBe(false);
    const back = await t.app.inject({ method: 'POST', url: `/api/users/${victim.userId}/reactivate`, headers: { cookie: it_.cookie } });
    expect(back.json().isActive).toBe(true);
    const audit = (await auditEntries(t.db, 'users')).filter((a) => a.record_id === String(victim.userId));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['Delete', 'Update']));
  });

  it('is closed to instructors and support staff', async () => {
    const instr = await t.signedIn('instructor');
    expect((await t.app.inject({ url: '/api/users', headers: { cookie: instr.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/users' })).statusCode).toBe(401);
  });
});
