import { lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingScreen } from '../components/ui/spinner.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { NotFoundRoute } from './not-found-route.tsx';
import type { ScreenKey } from '../lib/screen-access.ts';
import { ScreenGuard } from './screen-guard.tsx';
import { SignedInArea } from './signed-in-area.tsx';

/**
 * Each screen is its own chunk, loaded when first visited (decision 023: the first load carries the
 * shell and the sign-in screen only). Pages are named exports; lazy() wants a default one.
 */
function screen<K extends string>(load: () => Promise<Record<K, () => ReactNode>>, name: K): ReactElement {
  const Page = lazy<ComponentType>(async () => {
    const page: () => ReactNode = (await load())[name];
    return { default: page };
  });
  return <Page />;
}

const PAGES = {
  dashboard: screen(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage'),
  attendance: screen(() => import('../features/attendance/take-attendance-page.tsx'), 'TakeAttendancePage'),
  projector: screen(() => import('../features/attendance/projector-page.tsx'), 'ProjectorPage'),
  signInSheet: screen(() => import('../features/print-sheets/sign-in-sheet-page.tsx'), 'SignInSheetPage'),
  users: screen(() => import('../features/users/user-management-page.tsx'), 'UserManagementPage'),
  students: screen(() => import('../features/students/students-page.tsx'), 'StudentsPage'),
  student: screen(() => import('../features/students/student-page.tsx'), 'StudentPage'),
  programs: screen(() => import('../features/programs/programs-page.tsx'), 'ProgramsPage'),
  courses: screen(() => import('../features/courses/courses-page.tsx'), 'CoursesPage'),
  schedules: screen(() => import('../features/schedules/schedules-page.tsx'), 'SchedulesPage'),
  dataManagement: screen(() => import('../features/data-management/data-management-page.tsx'), 'DataManagementPage'),
  auditLogs: screen(() => import('../features/audit-logs/audit-logs-page.tsx'), 'AuditLogsPage'),
  calendar: screen(() => import('../features/calendar/calendar-page.tsx'), 'CalendarPage'),
  settings: screen(() => import('../features/settings/settings-page.tsx'), 'SettingsPage'),
  hours: screen(() => import('../features/hours/hours-page.tsx'), 'HoursPage'),
  compliance: screen(() => import('../features/compliance/compliance-page.tsx'), 'CompliancePage'),
  sessions: screen(() => import('../features/auth/sessions-page.tsx'), 'SessionsPage'),
  setup: screen(() => import('../features/auth/setup-page.tsx'), 'SetupPage'),
  setPassword: screen(() => import('../features/users/set-password-page.tsx'), 'SetPasswordPage'),
  signOut: screen(() => import('../features/auth/sign-out-page.tsx'), 'SignOutPage'),
};

/** Signed-in screens: path (null = index '/'), the SPEC §6 check to apply, and the page. */
const SCREENS: { path: string | null; access: ScreenKey; page: ReactElement }[] = [
  { path: null, access: 'dashboard', page: PAGES.dashboard },
  { path: 'attendance', access: 'attendance', page: PAGES.attendance },
  { path: 'attendance/present', access: 'attendance', page: PAGES.projector },
  { path: 'attendance/sheet', access: 'attendance', page: PAGES.signInSheet },
  { path: 'users', access: 'users', page: PAGES.users },
  { path: 'students', access: 'students', page: PAGES.students },
  { path: 'programs', access: 'programs', page: PAGES.programs },
  { path: 'courses', access: 'courses', page: PAGES.courses },
  { path: 'schedules', access: 'schedules', page: PAGES.schedules },
  { path: 'data-management', access: 'data-management', page: PAGES.dataManagement },
  { path: 'audit-logs', access: 'audit-logs', page: PAGES.auditLogs },
  { path: 'calendar', access: 'calendar', page: PAGES.calendar },
  { path: 'settings', access: 'settings', page: PAGES.settings },
  { path: 'students/:id', access: 'student', page: PAGES.student },
  { path: 'hours', access: 'hours', page: PAGES.hours },
  { path: 'compliance', access: 'compliance', page: PAGES.compliance },
];

/** Client routes of SPEC §2 (plus sign-in, first-run setup, sign-out confirmation and your sessions); paths match common/routes.ts. */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/setup" element={PAGES.setup} />
        <Route path="/set-password" element={PAGES.setPassword} />
        <Route path="/sign-out" element={PAGES.signOut} />
        <Route element={<SignedInArea />}>
          {SCREENS.map(({ path, access, page }) => {
            const element = <ScreenGuard access={access}>{page}</ScreenGuard>;
            return path === null ? <Route key="index" index element={element} /> : <Route key={path} path={path} element={element} />;
          })}
          {/* Every signed-in user, whatever the role, sees and ends their own sessions. */}
          <Route path="sessions" element={PAGES.sessions} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
