import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../../common/auth.ts';

const MobileMenu = lazy(() => import('./mobile-menu.tsx').then((m) => ({ default: m.MobileMenu })));

/** Below 768 px the sidebar becomes a slide-in menu (mobile-menu.tsx), opened by this button. */
export function MobileNav({ user }: { user: CurrentUser }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const [shownPath, setShownPath] = useState(pathname);

  // Choosing a destination closes the menu (adjusting state during render, not in an effect).
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'mobile-menu' : undefined}
        onClick={() => setOpen(true)}
        className="-ml-2 inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
      >
        <Menu aria-hidden="true" className="size-6" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <MobileMenu
            user={user}
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
