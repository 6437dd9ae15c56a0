import { useEffect, useState } from 'react';

/** The screen's name as the tab shows it ("Students · Muster" → "Students"). */
const screenName = () => document.title.split(' · ')[0] ?? document.title;
const printedAt = () => new Date().toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });

/**
 * The title line of a printed page (decision 032): which screen, and when it was printed. Shown
 * only in print; kept current as screens rename the tab and again just before printing.
 */
export function PrintTitle() {
  const [line, setLine] = useState(() => ({ screen: screenName(), at: printedAt() }));
  useEffect(() => {
    const update = () => setLine({ screen: screenName(), at: printedAt() });
    const title = document.querySelector('title');
    const observer = new MutationObserver(update);
    if (title) observer.observe(title, { childList: true, characterData: true, subtree: true });
    window.addEventListener('beforeprint', update);
    update();
    return () => {
      observer.disconnect();
      window.removeEventListener('beforeprint', update);
    };
  }, []);
  return (
    <p data-print-title className="mb-4 hidden border-b border-slate-300 pb-2 text-xs text-slate-700 print:flex print:justify-between">
      <span className="font-semibold">{line.screen}</span>
      <span>Printed {line.at}</span>
    </p>
  );
}
