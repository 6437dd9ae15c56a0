import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { buildMaintenanceNotice } from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

const clock = fixedClock('2026-11-24T15:00:00Z');
let t: TestApp;
let superAdmin: { cookie: string; email: string };
let itAdmin: { cookie: string; email: string };
let instructor: { cookie: string; email: string; userId: number };

beforeAll(async () => {
  t = await createTestApp({ clock, config: { ...loadConfig({ NODE_ENV: 'test' }), smtp: { url: 'smtp://127.0.0.1:2525', from: 'Muster <m@school.test>' } } });
  superAdmin = await t.signedIn('super_admin');
  itAdmin = await t.signedIn('it_admin');
  instructor = await t.signedIn('instructor');
  // The instructor does not want maintenance e-mails.
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: instructor.cookie },
    payload: { notifications: { systemMaintenanceNotices: false } },
  });
});
afterAll(() => t.close());

const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/maintenance-notices', headers: { cookie }, payload });
const window = { startsAt: '2026-11-28T04:00:00Z', endsAt: '2026-11-28T08:00:00Z' };

describe('maintenance notices', () => {
  it('super_admin posts a notice: audited, shown to every signed-in user, e-mailed to staff who want it', async () => {
    const res = await post(superAdmin.cookie, { message: '  Database upgrade; Muster will be unavailable.  ', ...window });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Database upgrade; Muster will be unavailable.',
      startsAt: '2026-11-28T04:00:00.000Z',
      endsAt: '2026-11-28T08:00:00.000Z',
      emailedTo: 2,
    });
    const current = await t.app.inject({ url: '/api/maintenance-notices/current', headers: { cookie: instructor.cookie } });
    expect(current.json()).toEqual([expect.objectContaining({ message: 'Database upgrade; Muster will be unavailable.' })]);
    const mails = (
      await t.db.execute<{ recipient: string; subject: string; text_body: string }>(
        sql`select recipient, subject, text_body from outbox_messages where kind = 'maintenance'`,
      )
    ).rows;
    expect(mails.map((m) => m.recipient).sort()).toEqual([superAdmin.email, itAdmin.email].sort());
    expect(mails[0]!.subject).toBe('Scheduled maintenance: Sat, Nov 28, 4:00 AM – Sat, Nov 28, 8:00 AM (UTC)');
    expect(mails[0]!.text_body).toContain('Stop maintenance notices: ');
    // The school has no name yet: the e-mail says so by naming none, not "Muster at Muster" (decision 045).
    expect(mails[0]!.text_body).toContain('\n\nMuster has scheduled maintenance: Sat, Nov 28');
    expect((await auditEntries(t.db, 'maintenance_notices')).at(-1)).toMatchObject({ action: 'Create' });
  });

  it('refuses other roles, and bad input with a 400 naming the field', async () => {
    expect((await post(itAdmin.cookie, { message: 'x', ...window })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/maintenance-notices', headers: { cookie: instructor.cookie } })).statusCode).toBe(403);
    const fieldOf = async (payload: object) => (await post(superAdmin.cookie, payload)).json().errors?.map((e: { field: string }) => e.field);
    expect(await fieldOf({ message: '', ...window })).toEqual(['message']);
    expect(await fieldOf({ message: 'x'.repeat(501), ...window })).toEqual(['message']);
    expect(await fieldOf({ message: 'Backwards', startsAt: window.endsAt, endsAt: window.startsAt })).toEqual(['endsAt']);
    expect(await fieldOf({ message: 'Past', startsAt: '2026-11-01T00:00:00Z', endsAt: '2026-11-02T00:00:00Z' })).toEqual(['endsAt']);
    expect(await fieldOf({ message: 'Bad date', startsAt: 'tomorrow', endsAt: window.endsAt })).toEqual(['startsAt']);
  });

  it('stops showing a notice once its window is over, and deletes one (audited)', async () => {
    clock.set('2026-11-28T08:00:01Z');
    const later = await t.signedIn('instructor');
    expect((await t.app.inject({ url: '/api/maintenance-notices/current', headers: { cookie: later.cookie } })).json()).toEqual([]);
    clock.set('2026-11-24T15:00:00Z');
    const [notice] = (await t.app.inject({ url: '/api/maintenance-notices', headers: { cookie: superAdmin.cookie } })).json();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/maintenance-notices/${notice.id}`, headers: { cookie: superAdmin.cookie } })).statusCode).toBe(
      204,
    );
    expect((await t.app.inject({ method: 'DELETE', url: `/api/maintenance-notices/${notice.id}`, headers: { cookie: superAdmin.cookie } })).statusCode).toBe(
      404,
    );
    expect((await auditEntries(t.db, 'maintenance_notices')).at(-1)).toMatchObject({ action: 'Delete' });
  });

  it('answers a new notice whose window starts before fifty later ones', async () => {
    for (let g = 1; g <= 50; g++) {
      const startsAt = new Date(Date.UTC(2027, 0, 1 + g));
      await buildMaintenanceNotice(t.db, { message: `Later window ${g}`, startsAt, endsAt: new Date(startsAt.getTime() + 60 * 60_000), createdBy: null });
    }
    const res = await post(superAdmin.cookie, { message: 'Sooner window', ...window });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Sooner window', startsAt: '2026-11-28T04:00:00.000Z' });
  });
});
