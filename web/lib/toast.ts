import { useSyncExternalStore, type ReactNode } from 'react';
import { TOAST_REMOVE_DELAY_MS } from '../../common/constants.ts';

/**
 * Module-level toast store, so code outside React (the QueryClient's error hooks) can call
 * toast(). SPEC §9: one toast visible at a time; a dismissed toast is dropped after
 * TOAST_REMOVE_DELAY_MS (a newer toast replaces it long before that).
 */
export type ToastVariant = 'default' | 'destructive' | 'success';

export type ToastInput = {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Optional action button (SPEC §8: title, description and an optional action). */
  action?: { label: string; onClick: () => void };
};

export type ToastItem = ToastInput & { id: string; open: boolean };

const TOAST_LIMIT = 1;

let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let nextId = 0;

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(id?: string): void {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  nextId += 1;
  const id = String(nextId);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follow the store from outside React (tests, logging); returns the unsubscribe function. */
export function watchToasts(onChange: (items: readonly ToastItem[]) => void): () => void {
  return subscribe(() => onChange(toasts));
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
