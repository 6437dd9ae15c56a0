import { useCallback, useSyncExternalStore } from 'react';

/** Below Tailwind's `md` breakpoint (48rem) on a screen: where the sidebar becomes a menu and wide tables become cards (never on paper, decision 032). */
export const NARROW_SCREEN = 'screen and (width < 48rem)';

/** Whether a media query matches now; re-renders when it starts or stops matching (a rotation, a zoom). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
