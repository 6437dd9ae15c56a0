import { useMutation } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { LoadingScreen, Spinner } from '../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { useAuth } from '../../lib/use-auth.ts';
import { signOutHere } from './auth-api.ts';

/**
 * /sign-out: where GET /api/logout sends a request that did not come from Muster's own pages (a
 * link or image on another site). Nothing is ended until the user confirms here.
 */
export function SignOutPage() {
  useDocumentTitle('Sign Out');
  const { user, isLoading } = useAuth();
  const signOut = useMutation({
    mutationFn: signOutHere,
    // A full page load drops every cached query along with the session.
    onSuccess: () => window.location.assign('/'),
  });

  if (isLoading) return <LoadingScreen />;

  if (!user) {
    return (
      <AuthLayout title="You are signed out" subtitle="There is no Muster session in this browser.">
        <Link to="/" className={buttonClasses('primary', 'lg', 'w-full')}>
          Go to the home page
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign out of Muster?" subtitle={`You are signed in as ${user.email}.`}>
      <Alert variant="info" className="mb-6">
        A sign-out request came from outside Muster, so nothing has changed yet. Sign out only if you meant to.
      </Alert>
      {signOut.isError ? <Alert className="mb-6">Could not sign out. Please try again.</Alert> : null}
      <div className="space-y-3">
        <Button size="lg" className="w-full" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          {signOut.isPending ? <Spinner className="size-4" /> : <LogOut aria-hidden="true" className="size-4" />}
          {signOut.isPending ? 'Signing out…' : 'Sign out'}
        </Button>
        <Link to="/" className={buttonClasses('secondary', 'lg', 'w-full')}>
          Stay signed in
        </Link>
      </div>
    </AuthLayout>
  );
}
