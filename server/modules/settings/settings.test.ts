import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../common/settings.ts';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

const clock = fixedClock('2026-05-04T12:00:00Z');
let t: TestApp;
let superAdmin: string, itAdmin: string, instructor: string, support: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  superAdmin = (await t.signedIn('super_admin')).cookie;
  itAdmin = (await t.signedIn('it_admin')).cookie;
  instructor = (await t.signedIn('instructor')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
});
afterAll(() => t.close());

const put = (cookie: string, payload: unknown) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie }, payload: payload as object });

describe('settings', () => {
  it('starts with the SPEC §9 defaults, readable by every role', async () => {
    for (const cookie of [superAdmin, itAdmin, instructor, support]) {
      const res = await t.app.inject({ url: '/api/settings', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(DEFAULT_SETTINGS);
    }
  });

  it('lets it_admin change attendance but not security or system settings', async () => {
    const ok = await put(itAdmin, { attendance: { lateThresholdMinutes: 15 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().attendance.lateThresholdMinutes).toBe(15);
    const refused = await put(itAdmin, { attendance: { lateThresholdMinutes: 20 }, security: { sessionTimeoutMinutes: 30 } });
    expect(refused.statusCode).toBe(403);
    // Refused as a whole: the attendance part was not written either.
    const now = (await t.app.inject({ url: '/api/settings', headers: { cookie: itAdmin } })).json();
    expect(now.attendance.lateThresholdMinutes).toBe(15);
    expect(now.security.sessionTimeoutMinutes).toBe(60);
  });

  it('lets every role change notification switches, and only super_admin system settings', async () => {
    expect((await put(support, { notifications: { weeklyReports: false } })).statusCode).toBe(200);
    expect((await put(instructor, { attendance: { lateThresholdMinutes: 5 } })).statusCode).toBe(403);
    expect((await put(itAdmin, { system: { dataRetentionYears: 3 } })).statusCode).toBe(403);
    expect((await put(superAdmin, { system: { dataRetentionYears: 3 } })).statusCode).toBe(200);
  });

  it('rejects out-of-range, non-integer and unknown values with the field named, writing nothing', async () => {
    const res = await put(superAdmin, { attendance: { qrCodeExpirationMinutes: 0, lateThresholdMinutes: 2.5 } });
    expect(res.statusCode).toBe(400);
    const fields = res.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['attendance.qrCodeExpirationMinutes', 'attendance.lateThresholdMinutes']));
    expect((await put(superAdmin, { attendance: { bogus: 1 } })).statusCode).toBe(400);
    expect((await put(superAdmin, { attendance: { timeZone: 'Mars/Olympus' } })).statusCode).toBe(400);
    expect((await put(superAdmin, { system: { maxFileUploadSizeMB: 11 } })).statusCode).toBe(400);
    const now = (await t.app.inject({ url: '/api/settings', headers: { cookie: superAdmin } })).json();
    expect(now.attendance.qrCodeExpirationMinutes).toBe(30);
  });

  it('holds the absolute session lifetime (default 12 hours, 1–168), editable by super_admin only', async () => {
    const now = (await t.app.inject({ url: '/api/settings', headers: { cookie: instructor } })).json();
    expect(now.security.sessionLifetimeHours).toBe(12);
    expect((await put(itAdmin, { security: { sessionLifetimeHours: 8 } })).statusCode).toBe(403);
    for (const bad of [0, 169, 2.5]) {
      const res = await put(superAdmin, { security: { sessionLifetimeHours: bad } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe('security.sessionLifetimeHours');
    }
    const ok = await put(superAdmin, { security: { sessionLifetimeHours: 8 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().security.sessionLifetimeHours).toBe(8);
    const { rows } = await t.db.execute<{ h: number }>(sql`select session_lifetime_hours as h from school_settings`);
    expect(rows[0]!.h).toBe(8);
  });

  it('audits each change with old and new values', async () => {
    await put(superAdmin, { attendance: { timeZone: 'America/Chicago', autoMarkAbsentHours: 3 } });
    const { rows } = await t.db.execute<{ old_values: object; new_values: object; table_name: string }>(
      sql`select old_values, new_values, table_name from audit_logs where table_name = 'settings' order by id desc limit 1`,
    );
    expect(rows[0]).toMatchObject({
      old_values: { 'attendance.timeZone': 'UTC', 'attendance.autoMarkAbsentHours': 2 },
      new_values: { 'attendance.timeZone': 'America/Chicago', 'attendance.autoMarkAbsentHours': 3 },
    });
  });

  it('takes effect: a shorter session timeout signs idle users out sooner', async () => {
    const { cookie } = await t.signedIn('support_staff');
    expect((await put(superAdmin, { security: { sessionTimeoutMinutes: 5 } })).statusCode).toBe(200);
    clock.advance(6 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe("notification switches are each user's own", () => {
  // Fresh sign-ins: the block above shortened the session timeout and moved the clock on.
  let superAdmin: string, itAdmin: string, instructor: string, support: string;
  beforeAll(async () => {
    await put((await t.signedIn('super_admin')).cookie, { security: { sessionTimeoutMinutes: 60 } });
    superAdmin = (await t.signedIn('super_admin')).cookie;
    itAdmin = (await t.signedIn('it_admin')).cookie;
    instructor = (await t.signedIn('instructor')).cookie;
    support = (await t.signedIn('support_staff')).cookie;
  });
  const get = async (cookie: string) => (await t.app.inject({ url: '/api/settings', headers: { cookie } })).json();
  const putDefaults = (cookie: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/settings/notification-defaults', headers: { cookie }, payload: payload as object });

  it("an instructor turning off low-attendance alerts changes only their own answer, not the school's", async () => {
    const { cookie: mine } = await t.signedIn('instructor');
    const { cookie: admin } = await t.signedIn('super_admin');
    const res = await put(mine, { notifications: { lowAttendanceAlerts: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().notifications.lowAttendanceAlerts).toBe(false);
    expect((await get(mine)).notifications.lowAttendanceAlerts).toBe(false);
    expect((await get(admin)).notifications.lowAttendanceAlerts).toBe(true);
    const defaults = await t.app.inject({ url: '/api/settings/notification-defaults', headers: { cookie: mine } });
    expect(defaults.statusCode).toBe(200);
    expect(defaults.json().lowAttendanceAlerts).toBe(true);
    const { rows } = await t.db.execute<{ low: boolean }>(sql`select low_attendance_alerts as low from school_settings`);
    expect(rows[0]!.low).toBe(true);
  });

  it('school defaults apply to users who have not chosen, not to one who chose', async () => {
    const { cookie: chose } = await t.signedIn('support_staff');
    const { cookie: unchosen } = await t.signedIn('instructor');
    const { cookie: admin } = await t.signedIn('it_admin');
    expect((await put(chose, { notifications: { emailNotifications: true } })).statusCode).toBe(200);
    const res = await putDefaults(admin, { emailNotifications: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().emailNotifications).toBe(false);
    expect((await get(unchosen)).notifications.emailNotifications).toBe(false);
    expect((await get(chose)).notifications.emailNotifications).toBe(true);
    // A switch the user did not send keeps following the school.
    expect((await putDefaults(superAdmin, { smsNotifications: true })).statusCode).toBe(200);
    expect((await get(chose)).notifications.smsNotifications).toBe(true);
    expect((await putDefaults(superAdmin, { emailNotifications: true, smsNotifications: false })).statusCode).toBe(200);
  });

  it('only super_admin and it_admin change the defaults; bad values are refused with the field named', async () => {
    expect((await putDefaults(instructor, { weeklyReports: false })).statusCode).toBe(403);
    expect((await putDefaults(support, { weeklyReports: false })).statusCode).toBe(403);
    const bad = await putDefaults(superAdmin, { weeklyReports: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('weeklyReports');
    expect((await putDefaults(superAdmin, { bogus: true })).statusCode).toBe(400);
    expect((await putDefaults(superAdmin, {})).statusCode).toBe(400);
    const badOwn = await put(instructor, { notifications: { smsNotifications: 1 } });
    expect(badOwn.statusCode).toBe(400);
    expect(JSON.stringify(badOwn.json())).toContain('smsNotifications');
    const { rows } = await t.db.execute<{ w: boolean }>(sql`select weekly_reports as w from school_settings`);
    expect(rows[0]!.w).toBe(true);
  });

  it("audits a user's own change and a change of the defaults", async () => {
    const me = await t.signedIn('instructor');
    await put(me.cookie, { notifications: { systemMaintenanceNotices: false } });
    const own = await t.db.execute<{ user_id: number; record_id: string; old_values: object; new_values: object }>(
      sql`select user_id, record_id, old_values, new_values from audit_logs where table_name = 'user_notification_settings' order by id desc limit 1`,
    );
    expect(own.rows[0]).toMatchObject({
      user_id: me.userId,
      record_id: String(me.userId),
      old_values: { 'notifications.systemMaintenanceNotices': true },
      new_values: { 'notifications.systemMaintenanceNotices': false },
    });
    await putDefaults(itAdmin, { weeklyReports: false });
    const school = await t.db.execute<{ record_id: string; old_values: object; new_values: object }>(
      sql`select record_id, old_values, new_values from audit_logs where table_name = 'settings' order by id desc limit 1`,
    );
    expect(school.rows[0]).toMatchObject({
      record_id: 'notification-defaults',
      old_values: { 'notifications.weeklyReports': true },
      new_values: { 'notifications.weeklyReports': false },
    });
    await putDefaults(itAdmin, { weeklyReports: true });
  });
});
