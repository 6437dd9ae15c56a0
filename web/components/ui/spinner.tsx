import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('animate-spin', className)} />;
}

/** Whole-page wait, announced to screen readers as "Loading". */
export function LoadingScreen() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-screen items-center justify-center bg-slate-50">
      <Spinner className="size-8 text-blue-700" />
    </div>
  );
}

/** A screen's wait inside the app shell (its code or first data on the way), announced as "Loading". */
export function LoadingPanel() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-64 items-center justify-center">
      <Spinner className="size-8 text-blue-700" />
    </div>
  );
}
