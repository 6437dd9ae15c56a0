import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

const WIDTHS = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' } as const;

type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Read out with the title when the dialog opens (aria-describedby). */
  description?: ReactNode;
  size?: keyof typeof WIDTHS;
  /** Forms: start in the first field rather than on the close button. */
  focusFirstField?: boolean;
  children: ReactNode;
};

/**
 * Where focus goes back to when a dialog closes, by dialog element: the element focused as it
 * opened (the button that opened it), then whatever its own dialog returns to. Radix returns focus
 * only to a Dialog.Trigger, and these dialogs open from state (a row's Edit button, a toolbar).
 */
const returnTargets = new WeakMap<Element, HTMLElement[]>();

/** The focused element now, followed by the return targets of the dialog it sits in (opened from a dialog that then closed). */
function focusReturnTargets(): HTMLElement[] {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return [];
  const outer = active.closest('[role="dialog"]');
  return [active, ...((outer && returnTargets.get(outer)) ?? [])];
}

/**
 * The opener may leave the page just after the dialog closed (a deleted row goes when its list is
 * fetched again): focus would fall to the top of the document, so it moves to the main region
 * instead. Watched for two seconds; focus the user moved elsewhere is left alone.
 */
function keepFocusOnPage(target: HTMLElement): void {
  const main = document.getElementById('main-content');
  if (!main || target === main) return;
  const until = Date.now() + 2_000;
  const check = () => {
    if (!target.isConnected) {
      if (document.activeElement == null || document.activeElement === document.body) main.focus();
      return;
    }
    if (Date.now() < until) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

const FIRST_FIELD = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * A titled modal dialog on Radix Dialog: focus is trapped inside, Escape and the overlay close it,
 * focus returns to the button that opened it, and the page behind is hidden from screen readers.
 * The body scrolls when it is taller than the window; the title bar stays put.
 */
export function Modal({ open, onOpenChange, title, description, size = 'md', focusFirstField = false, children }: ModalProps) {
  // Taken as it opens, before Radix moves focus into the dialog (its focus scope does so in an effect).
  const returnTo = useRef<HTMLElement[]>([]);
  useLayoutEffect(() => {
    if (open) returnTo.current = focusReturnTargets();
  }, [open]);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/60 data-[state=open]:animate-fade-in" />
        <DialogPrimitive.Content
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            if (event.currentTarget instanceof Element) returnTargets.set(event.currentTarget, returnTo.current);
            if (!focusFirstField) return;
            const field = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(FIRST_FIELD);
            if (!field) return;
            event.preventDefault();
            field.focus();
          }}
          onCloseAutoFocus={(event) => {
            // The opener, or (when it went away, e.g. the deleted row's button) the next one still on the
            // page, or else the page's main region, so a keyboard user is not sent back to the top of the body.
            const target = returnTo.current.find((el) => el.isConnected) ?? document.getElementById('main-content');
            if (!target) return;
            event.preventDefault();
            target.focus();
            keepFocusOnPage(target);
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            'rounded-xl bg-white shadow-2xl outline-none data-[state=open]:animate-fade-in',
            WIDTHS[size],
          )}
        >
          <div className="flex shrink-0 items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
              {description ? <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">{description}</DialogPrimitive.Description> : null}
            </div>
            <DialogPrimitive.Close
              aria-label="Close"
              className="-mt-1 -mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <X aria-hidden="true" className="size-5" />
            </DialogPrimitive.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** The button row at the end of a dialog's body (Cancel on the left of the main action). */
export function ModalFooter({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mt-6 flex flex-col-reverse gap-2 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end', className)}>{children}</div>;
}

/** A Cancel button that closes the enclosing Modal. */
export function ModalCancel({ children = 'Cancel' }: { children?: ReactNode }) {
  return (
    <DialogPrimitive.Close className="inline-flex h-10 items-center justify-center rounded-lg bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50">
      {children}
    </DialogPrimitive.Close>
  );
}
