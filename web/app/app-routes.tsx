import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { ProjectorPage } from '../features/attendance/projector-page.tsx';
import { TakeAttendancePage } from '../features/attendance/take-attendance-page.tsx';
import { AuditLogsPage } from '../features/audit-logs/audit-logs-page.tsx';
import { CalendarPage } from '../features/calendar/calendar-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { SessionsPage } from '../features/auth/sessions-page.tsx';
import { SetupPage } from '../features/auth/setup-page.tsx';
import { SignOutPage } from '../features/auth/sign-out-page.tsx';
import { CoursesPage } from '../features/courses/courses-page.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { DataManagementPage } from '../features/data-management/data-management-page.tsx';
import { ProgramsPage } from '../features/programs/programs-page.tsx';
import { SchedulesPage } from '../features/schedules/schedules-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { StudentPage } from '../features/students/student-page.tsx';
import { StudentsPage } from '../features/students/students-page.tsx';
import { HoursPage } from '../features/hours/hours-page.tsx';
import { CompliancePage } from '../features/compliance/compliance-page.tsx';
import { SetPasswordPage } from '../features/users/set-password-page.tsx';
import { UserManagementPage } from '../features/users/user-management-page.tsx';
import { NotFoundRoute } from './not-found-route.tsx';
import type { ScreenKey } from '../lib/screen-access.ts';
import { ScreenGuard } from './screen-guard.tsx';
import { SignedInArea } from './signed-in-area.tsx';

/** Signed-in screens: path (null = index '/'), the SPEC §6 check to apply, and the page. */
const SCREENS: { path: string | null; access: ScreenKey; page: ReactElement }[] = [
  { path: null, access: 'dashboard', page: <DashboardPage /> },
  { path: 'attendance', access: 'attendance', page: <TakeAttendancePage /> },
  { path: 'attendance/present', access: 'attendance', page: <ProjectorPage /> },
  { path: 'users', access: 'users', page: <UserManagementPage /> },
  { path: 'students', access: 'students', page: <StudentsPage /> },
  { path: 'programs', access: 'programs', page: <ProgramsPage /> },
  { path: 'courses', access: 'courses', page: <CoursesPage /> },
  { path: 'schedules', access: 'schedules', page: <SchedulesPage /> },
  { path: 'data-management', access: 'data-management', page: <DataManagementPage /> },
  { path: 'audit-logs', access: 'audit-logs', page: <AuditLogsPage /> },
  { path: 'calendar', access: 'calendar', page: <CalendarPage /> },
  { path: 'settings', access: 'settings', page: <SettingsPage /> },
  { path: 'students/:id', access: 'student', page: <StudentPage /> },
  { path: 'hours', access: 'hours', page: <HoursPage /> },
  { path: 'compliance', access: 'compliance', page: <CompliancePage /> },
];

/** Client routes of SPEC §2 (plus sign-in, first-run setup, sign-out confirmation and your sessions); paths match common/routes.ts. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/setup" element={<SetupPage />} />
      <Route path="/set-password" element={<SetPasswordPage />} />
      <Route path="/sign-out" element={<SignOutPage />} />
      <Route element={<SignedInArea />}>
        {SCREENS.map(({ path, access, page }) => {
          const element = <ScreenGuard access={access}>{page}</ScreenGuard>;
          return path === null ? <Route key="index" index element={element} /> : <Route key={path} path={path} element={element} />;
        })}
        {/* Every signed-in user, whatever the role, sees and ends their own sessions. */}
        <Route path="sessions" element={<SessionsPage />} />
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
