import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { CurrentUser } from '../../../common/auth.ts';
import { SidebarContent } from './sidebar-content.tsx';

/**
 * The phone's slide-in menu (mobile-nav.tsx opens it). Radix Dialog gives the overlay, closing on
 * overlay click and Escape, and focus trapping; when it closes, focus goes back to the menu button.
 * Its own chunk: the dialog's code arrives the first time the menu opens, not before the first draw.
 */
export function MobileMenu({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="menu-overlay" className="fixed inset-0 z-50 bg-slate-900/60 data-[state=open]:animate-fade-in md:hidden" />
        <Dialog.Content
          id="mobile-menu"
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
