// Client-side routes of SPEC §2 (plus sign-in, first-run setup, set-password, sign-out confirmation and your sessions).
const APP_ROUTES = [
  '/',
  '/login',
  '/setup',
  '/set-password',
  '/sign-out',
  '/sessions',
  '/attendance',
  '/attendance/present',
  '/attendance/sheet',
  '/users',
  '/students',
  '/programs',
  '/hours',
  '/calendar',
  '/compliance',
  '/courses',
  '/schedules',
  '/data-management',
  '/audit-logs',
  '/settings',
] as const;

export function isAppRoute(pathname: string): boolean {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (APP_ROUTES as readonly string[]).includes(p) || /^\/students\/\d+$/.test(p);
}
