import { LoadingScreen } from '../components/ui/spinner.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { AppShell } from './layout/app-shell.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Unknown paths: inside the shell when signed in, on a plain page otherwise. */
export function NotFoundRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (user) {
    return (
      <AppShell user={user}>
        <NotFoundPage />
      </AppShell>
    );
  }
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-16">
      <NotFoundPage />
    </main>
  );
}
