import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type Action } from '../../common/permissions.ts';
import { ROLES, type Role } from '../../common/roles.ts';
import { ROLE_NOT_PERMITTED } from './authorization.ts';
import { createLoginSession } from './login-sessions.ts';
import { createTestApp, insertUserPerRole, type TestApp } from '../test/helpers.ts';

// Walks every registered /api route, so a new route cannot slip past the permission table.
let t: TestApp;
let userIds: Record<Role, number>;

beforeAll(async () => {
  t = await createTestApp();
  userIds = await insertUserPerRole(t.db, 'perm.test', 'P');
});
afterAll(() => t.close());

// A record id that does not exist, so per-record rules (404/403 from services) stay out of the way.
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '999999').replace(/\*$/, 'x');

describe('every /api route answers each role exactly as the permission table says', () => {
  it('has routes to check, each declaring its access', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(5);
    expect(t.app.apiRoutes.find((r) => r.url === '/api/settings' && r.method === 'GET')?.access).toBe('settings:view');
  });

  it('anonymous callers get 401 on every non-public route', async () => {
    for (const r of t.app.apiRoutes) {
      const res = await t.app.inject({ method: r.method as 'GET', url: concrete(r.url) });
      if (r.access === 'public') expect([401, 403], `${r.method} ${r.url}`).not.toContain(res.statusCode);
      else {
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
        expect(res.body).toContain('Unauthorized');
      }
    }
  });

  it('each role gets 403 exactly where the table denies it', async () => {
    for (const role of ROLES) {
      for (const r of t.app.apiRoutes) {
        // A fresh session per call: some routes (logout) end the session they are called with.
        const token = await createLoginSession(t.db, userIds[role], { ip: null, userAgent: null });
        const res = await t.app.inject({ method: r.method as 'GET', url: concrete(r.url), cookies: { muster_session: token } });
        const allowed = r.access === 'public' || r.access === 'signedIn' || can(role, r.access as Action);
        const byTable = res.statusCode === 403 && res.json().code === ROLE_NOT_PERMITTED;
        if (allowed) {
          expect(res.statusCode, `${role} ${r.method} ${r.url}`).not.toBe(401);
          expect(byTable, `${role} ${r.method} ${r.url} refused by the table`).toBe(false);
        } else {
          expect(res.statusCode, `${role} ${r.method} ${r.url}`).toBe(403);
          expect(byTable).toBe(true);
        }
      }
    }
  });

  it('refuses before validating the body, so a forbidden caller learns nothing about it', async () => {
    const token = await createLoginSession(t.db, userIds.instructor, { ip: null, userAgent: null });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      cookies: { muster_session: token },
      payload: { security: { sessionTimeoutMinutes: 'not a number' } },
    });
    // Route admits every role (notifications); the group check happens in the service after validation.
    expect(res.statusCode).toBe(400);
    const anon = await t.app.inject({ method: 'PUT', url: '/api/settings', payload: 'garbage{', headers: { 'content-type': 'application/json' } });
    expect(anon.statusCode).toBe(401);
  });

  it('refuses a state-changing request from another site', async () => {
    const token = await createLoginSession(t.db, userIds.super_admin, { ip: null, userAgent: null });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      cookies: { muster_session: token },
      headers: { origin: 'https://evil.example' },
      payload: { notifications: { smsNotifications: true } },
    });
    expect(res.statusCode).toBe(403);
  });
});
