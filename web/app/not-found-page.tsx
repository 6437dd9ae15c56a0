import { SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { PAGE_NOT_FOUND } from '../../common/messages.ts';
import { buttonClasses } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

/** Any unknown path (SPEC §2). The server answers such paths with a real 404 status. */
export function NotFoundPage() {
  useDocumentTitle(PAGE_NOT_FOUND);
  return (
    <Card className="mx-auto mt-8 max-w-xl px-6 py-12 text-center sm:px-10">
      <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-slate-100">
        <SearchX aria-hidden="true" className="size-7 text-slate-600" />
      </span>
      <p className="mt-5 text-sm font-semibold text-blue-700">404</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">{PAGE_NOT_FOUND}</h1>
      <p className="mt-2 text-sm text-slate-600">The page you asked for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
        Go to the home page
      </Link>
    </Card>
  );
}
