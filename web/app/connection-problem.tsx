import { TriangleAlert } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

/** The server could not say who is signed in (down, or network lost): offer a retry, not a wrong screen. */
export function ConnectionProblem({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle('Connection problem');
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <Card role="alert" className="max-w-md px-8 py-10 text-center">
        <TriangleAlert aria-hidden="true" className="mx-auto size-8 text-amber-700" />
        <h1 className="mt-4 text-xl font-bold text-slate-900">Muster can't reach the server</h1>
        <p className="mt-2 text-sm text-slate-600">Check your connection, then try again.</p>
        <Button className="mt-6" onClick={onRetry}>
          Try again
        </Button>
      </Card>
    </main>
  );
}
