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
