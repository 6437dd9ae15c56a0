import * as Dialog from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../../common/auth.ts';
import { SidebarContent } from './sidebar-content.tsx';

/**
 * Below 768 px the sidebar becomes a slide-in menu. Radix Dialog gives the overlay, closing on
 * overlay click and Escape, focus trapping and aria-expanded on the trigger.
 */
export function MobileNav({ user }: { user: CurrentUser }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const [shownPath, setShownPath] = useState(pathname);

  // Choosing a destination closes the menu (adjusting state during render, not in an effect).
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        aria-label="Open menu"
        className="-ml-2 inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
      >
        <Menu aria-hidden="true" className="size-6" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="menu-overlay" className="fixed inset-0 z-50 bg-slate-900/60 data-[state=open]:animate-fade-in md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] shadow-2xl outline-none data-[state=open]:animate-slide-in md:hidden"
        >
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <SidebarContent user={user} />
          <Dialog.Close
            aria-label="Close menu"
            className="absolute top-3 right-3 inline-flex size-10 items-center justify-center rounded-lg text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
          >
            <X aria-hidden="true" className="size-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
