import { useSearchParams } from 'react-router';

/**
 * The open tab of a tabbed screen, kept in ?tab= so a reload or a shared link keeps it; a missing or
 * unknown value opens the first tab. Choosing the first tab drops ?tab= unless `alwaysInUrl`.
 */
export function useTabParam<K extends string>(tabs: readonly { value: K }[], { alwaysInUrl = false } = {}): [K, (next: K) => void] {
  const [params, setParams] = useSearchParams();
  const first = tabs[0]!.value;
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? first;
  const setTab = (next: K) =>
    setParams(
      (p) => {
        const copy = new URLSearchParams(p);
        if (next === first && !alwaysInUrl) copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
  return [tab, setTab];
}
