import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSchool } from '../../seed/demo-school.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

// Every dashboard endpoint answers with real figures over the demo school, for every role.
let t: TestApp;
let cookies: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoSchool(t.db, { today: new Date() });
  cookies = {
    super_admin: (await t.signedIn('super_admin')).cookie,
    support_staff: (await t.signedIn('support_staff')).cookie,
  };
});
afterAll(() => t.close());

describe('dashboard over the demo school', () => {
  for (const path of ['executive-summary', 'real-time', 'analytics', 'stats', 'recent-attendance']) {
    it(`GET /api/dashboard/${path}`, async () => {
      for (const cookie of Object.values(cookies)) {
        const res = await t.app.inject({ url: `/api/dashboard/${path}`, headers: { cookie } });
        expect(res.statusCode, res.body).toBe(200);
      }
    });
  }

  it("finds the demo school's struggling students", async () => {
    const res = await t.app.inject({ url: '/api/dashboard/real-time', headers: { cookie: cookies.super_admin! } });
    const alerts = res.json().alerts;
    expect(alerts.length).toBeGreaterThan(0);
    const analytics = (await t.app.inject({ url: '/api/dashboard/analytics', headers: { cookie: cookies.super_admin! } })).json();
    expect(analytics.attendanceTrends).toHaveLength(7);
    expect(analytics.courseAnalytics.length).toBeGreaterThan(0);
  });
});
