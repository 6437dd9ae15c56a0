import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../../common/auth.ts';
import { BrandMark } from '../../components/ui/brand-mark.tsx';
import { MaintenanceBanner } from '../../components/maintenance-banner.tsx';
import { MobileNav } from './mobile-nav.tsx';
import { PrintTitle } from './print-title.tsx';
import { SidebarContent } from './sidebar-content.tsx';

/** Signed-in frame: skip link, fixed sidebar (or mobile menu), and the main landmark. */
export function AppShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstRender = useRef(true);

  // After a client-side navigation, start at the top of the new screen and move focus there,
  // as a full page load would; screen readers then read the new screen.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="min-h-screen bg-slate-50 print:bg-white">
      <a
        href="#main-content"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 font-semibold text-blue-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 print:hidden"
      >
        Skip to main content
      </a>
      <aside aria-label="Sidebar" className="fixed inset-y-0 left-0 z-30 hidden w-64 md:block print:hidden">
        <SidebarContent user={user} />
      </aside>
      <div className="md:pl-64 print:pl-0">
        <header className="sticky top-0 z-20 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur md:hidden print:hidden">
          <MobileNav user={user} />
          <BrandMark />
        </header>
        <MaintenanceBanner />
        <main
          ref={mainRef}
          id="main-content"
          tabIndex={-1}
          className="mx-auto max-w-7xl px-4 py-8 outline-none sm:px-6 lg:px-10 lg:py-10 print:max-w-none print:p-0"
        >
          <PrintTitle />
          {children}
        </main>
      </div>
    </div>
  );
}
