import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cn } from '../../lib/cn.ts';

/** Whether the box is narrower than its contents (it scrolls sideways), kept up to date as either resizes. */
export function useOverflowsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflows(box.scrollWidth > box.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * A box that scrolls sideways when its table is wider than the screen. While it does, it is a named
 * region in the tab order, so a keyboard can scroll it too (axe: scrollable-region-focusable); when
 * everything fits it is a plain box and adds no tab stop.
 */
export function ScrollBox({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useOverflowsSideways(box);
  return (
    <div
      ref={box}
      className={cn('relative overflow-x-auto focus-visible:outline-offset-[-2px]', className)}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
