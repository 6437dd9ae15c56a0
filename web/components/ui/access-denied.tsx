import { ShieldX } from 'lucide-react';
import { ACCESS_DENIED } from '../../../common/messages.ts';
import { Card } from './card.tsx';

/** SPEC §6 screen checks: the screen's body is replaced by this notice. */
export function AccessDenied({ message }: { message: string }) {
  return (
    <Card className="mx-auto mt-8 max-w-xl px-6 py-12 text-center sm:px-10">
      <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-50">
        <ShieldX aria-hidden="true" className="size-7 text-red-700" />
      </span>
      <h1 className="mt-5 text-xl font-bold text-slate-900">{ACCESS_DENIED}</h1>
      <p className="mt-2 text-sm leading-6 text-slate-600">{message}</p>
    </Card>
  );
}
