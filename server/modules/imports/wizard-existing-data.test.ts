import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse, buildProgram, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

// The upload wizard recognises records that are already there.

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('super_admin')).cookie;
});
afterAll(() => t.close());

const wizard = async () => (await t.app.inject({ url: '/api/upload-wizard', headers: { cookie: admin } })).json();

describe('upload wizard with data already in the school', () => {
  it('completes, in step order, the steps whose type has rows, while nobody has moved the wizard', async () => {
    const programId = (await buildProgram(t.db, { programName: 'PN' })).id;
    await buildCourse(t.db, { courseCode: 'NUR-1', courseName: 'Fundamentals', programId });
    await buildStudent(t.db, { firstName: 'Ana', lastName: 'Diaz', email: 'ana@student.edu', sisStudentId: 'S-1', programId });
    const w = await wizard();
    // No instructor yet: step 3 is next; schedules (needing instructors) stay locked.
    expect(w).toMatchObject({ currentStep: 3, completedSteps: [1, 2, 4] });
    expect(w.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed', 'current', 'completed', 'locked']);
    // Reading again changes nothing.
    expect(await wizard()).toEqual(w);
  });

  it('keeps a reset: data stays, the wizard starts over as the person asked', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/upload-wizard/reset', headers: { cookie: admin } })).statusCode).toBe(200);
    expect(await wizard()).toMatchObject({ currentStep: 1, completedSteps: [] });
  });
});

describe('upload wizard with rows whose prerequisites are missing', () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp();
  });
  afterAll(() => fresh.close());

  it('adopts nothing from instructors alone (they need programs and courses first)', async () => {
    const cookie = (await fresh.signedIn('super_admin')).cookie;
    await fresh.signedIn('instructor');
    const w = (await fresh.app.inject({ url: '/api/upload-wizard', headers: { cookie } })).json();
    expect(w).toMatchObject({ currentStep: 1, completedSteps: [] });
  });
});
