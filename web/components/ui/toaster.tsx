import * as ToastPrimitive from '@radix-ui/react-toast';
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { TOAST_DURATION_MS } from '../../../common/constants.ts';
import { cn } from '../../lib/cn.ts';
import { dismissToast, useToasts, type ToastVariant } from '../../lib/toast.ts';

const ROOT_STYLES: Record<ToastVariant, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-white text-slate-900',
  destructive: 'border-red-700 bg-red-700 text-white',
};

/**
 * Radix Toast gives SPEC §9's behaviour: auto-close after 5 s, swipe right 50 px to dismiss,
 * F8 focuses the viewport (Radix's default hotkey). The store keeps one toast at a time.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((t) => {
        const variant = t.variant ?? 'default';
        return (
          <ToastPrimitive.Root
            key={t.id}
            open={t.open}
            onOpenChange={(open) => {
              if (!open) dismissToast(t.id);
            }}
            className={cn(
              'group pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
              'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform',
              'data-[state=open]:animate-toast-in data-[swipe=end]:animate-toast-out',
              ROOT_STYLES[variant],
            )}
          >
            {variant === 'destructive' ? (
              <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            ) : variant === 'success' ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            ) : null}
            <div className="grid gap-1">
              <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
              {t.description ? (
                <ToastPrimitive.Description className={cn('text-sm', variant === 'destructive' ? 'text-white' : 'text-slate-700')}>
                  {t.description}
                </ToastPrimitive.Description>
              ) : null}
              {t.action ? (
                <ToastPrimitive.Action
                  altText={t.action.label}
                  onClick={t.action.onClick}
                  className="mt-2 inline-flex h-8 w-fit items-center rounded-md border border-current px-3 text-sm font-medium"
                >
                  {t.action.label}
                </ToastPrimitive.Action>
              ) : null}
            </div>
            <ToastPrimitive.Close
              aria-label="Close"
              className={cn(
                'absolute top-3 right-3 rounded-md p-1',
                variant === 'destructive' ? 'text-white hover:bg-red-800' : 'text-slate-600 hover:bg-slate-100',
              )}
            >
              <X aria-hidden="true" className="size-4" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:max-w-sm" />
    </ToastPrimitive.Provider>
  );
}
