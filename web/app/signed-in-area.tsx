import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LoadingPanel, LoadingScreen } from '../components/ui/spinner.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { goToSignIn } from '../lib/navigation.ts';
import { ConnectionProblem } from './connection-problem.tsx';
import { AppShell } from './layout/app-shell.tsx';

// Only a sign-in that still owes a step (a new password, two-factor) needs these screens.
const SignInStepScreen = lazy(() => import('../features/auth/sign-in-steps.tsx').then((m) => ({ default: m.SignInStepScreen })));

/**
 * Auth gate for the app routes (SPEC §2): a spinner while loading; signed out, '/' is the
 * landing page and any other screen sends the browser to sign in; signed in, the shell.
 */
export function SignedInArea() {
  const { user, isLoading, error, refetch } = useAuth();
  const { pathname } = useLocation();

  if (isLoading) return <LoadingScreen />;
  if (error) return <ConnectionProblem onRetry={() => void refetch()} />;
  if (!user) return pathname === '/' ? <LandingPage /> : <RedirectToSignIn />;
  // A new password or two-factor first: the server refuses everything else until then.
  if (user.pendingStep)
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SignInStepScreen step={user.pendingStep} email={user.email} />
      </Suspense>
    );
  return (
    <AppShell user={user}>
      {/* Each screen's code arrives when it is first opened (app-routes.tsx); the shell stays. */}
      <Suspense fallback={<LoadingPanel />}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}

function RedirectToSignIn() {
  useEffect(goToSignIn, []);
  return <LoadingScreen />;
}
