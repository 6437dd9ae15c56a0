import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadType } from '../../../common/constants.ts';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { WIZARD_STEP_LOCKED } from '../../../common/upload-wizard.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';
import { csv, upload } from '../../test/import-support.ts';

let t: TestApp;
let admin: string, otherAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('super_admin')).cookie;
  otherAdmin = (await t.signedIn('it_admin')).cookie;
});
afterAll(() => t.close());

const wizard = async (cookie = admin) => (await t.app.inject({ url: '/api/upload-wizard', headers: { cookie } })).json();
const statuses = async (cookie = admin) => (await wizard(cookie)).steps.map((s: { status: string }) => s.status);
const go = (step: number) => t.app.inject({ method: 'PUT', url: '/api/upload-wizard', headers: { cookie: admin }, payload: { currentStep: step } });
const importTemplate = (type: UploadType, query = '') => {
  const { header, rows } = templateRows(importType(type));
  return upload(t, admin, type, `${type}.csv`, csv(header, rows), query);
};

describe('upload wizard (SPEC §4), stored on the server', () => {
  it('starts on step 1 with every other step locked, and lists the prerequisites', async () => {
    const w = await wizard();
    expect(w).toMatchObject({ currentStep: 1, completedSteps: [] });
    expect(w.steps.map((s: { step: number; type: string; label: string; prerequisites: number[] }) => [s.step, s.type, s.label, s.prerequisites])).toEqual([
      [1, 'programs', 'Programs', []],
      [2, 'courses', 'Courses', [1]],
      [3, 'instructors', 'Instructors', [1, 2]],
      [4, 'students', 'Students', [1]],
      [5, 'schedules', 'Schedules', [1, 2, 3]],
    ]);
    expect(await statuses()).toEqual(['current', 'locked', 'locked', 'locked', 'locked']);
  });

  it('refuses a locked step with the SPEC message', async () => {
    const res = await go(2);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(WIZARD_STEP_LOCKED);
    expect((await go(9)).statusCode).toBe(400);
    expect((await wizard()).currentStep).toBe(1);
  });

  it('neither a dry run nor a refused upload completes a step', async () => {
    expect((await importTemplate('programs', '?dryRun=true')).statusCode).toBe(200);
    expect((await upload(t, admin, 'programs', 'bad.csv', 'sisProgramId,programName,durationHours\nX,Y,0\n')).statusCode).toBe(400);
    expect(await wizard()).toMatchObject({ currentStep: 1, completedSteps: [] });
  });

  it('completes a step on a successful upload and moves to the next one; every admin sees it', async () => {
    expect((await importTemplate('programs')).statusCode).toBe(200);
    expect(await wizard(otherAdmin)).toMatchObject({ currentStep: 2, completedSteps: [1] });
    expect(await statuses(otherAdmin)).toEqual(['completed', 'current', 'locked', 'available', 'locked']);
  });

  it('lets an available step be chosen, and skips a locked next step after completing it', async () => {
    expect((await go(4)).json()).toMatchObject({ currentStep: 4 });
    expect((await importTemplate('students')).statusCode).toBe(200);
    // Step 5 needs 2 and 3: the wizard goes to the first open step instead.
    expect(await wizard()).toMatchObject({ currentStep: 2, completedSteps: [1, 4] });
    expect(await statuses()).toEqual(['completed', 'current', 'locked', 'completed', 'locked']);
  });

  it('goes back to a completed step (Previous Step) and on to the end', async () => {
    expect((await go(1)).json().currentStep).toBe(1);
    expect((await go(2)).json().currentStep).toBe(2);
    await importTemplate('courses');
    expect(await wizard()).toMatchObject({ currentStep: 3, completedSteps: [1, 2, 4] });
    await importTemplate('instructors');
    expect(await wizard()).toMatchObject({ currentStep: 4, completedSteps: [1, 2, 3, 4] });
    expect((await go(5)).statusCode).toBe(200);
    await importTemplate('schedules');
    expect(await wizard()).toMatchObject({ currentStep: 5, completedSteps: [1, 2, 3, 4, 5] });
    expect(await statuses()).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
  });

  it('Reset Wizard returns to step 1 and clears completed steps, audited', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/upload-wizard/reset', headers: { cookie: otherAdmin } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currentStep: 1, completedSteps: [] });
    expect(await statuses()).toEqual(['current', 'locked', 'locked', 'locked', 'locked']);
    const audit = await auditEntries(t.db, 'wizard_progress');
    expect(audit.at(-1)).toMatchObject({ action: 'Update', new_values: { currentStep: 1, completedSteps: [], reset: true } });
    expect(audit.filter((a) => a.action === 'Update').length).toBeGreaterThanOrEqual(4);
  });
});
