import { SHARED_BROWSER_WINDOW_MINUTES, type CheckInFlag } from '../../../common/check-in-flags.ts';

const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

/**
 * What a "possible proxy" flag's evidence means, in the instructor's words: what was seen, and the
 * innocent explanation beside the suspicious one (docs/decisions/006 and 044).
 */
export function proxyFlagExplanation(flag: Pick<CheckInFlag, 'reason' | 'evidence'>): string {
  const e = flag.evidence;
  const minutes = e.windowMinutes ?? SHARED_BROWSER_WINDOW_MINUTES;
  if (flag.reason === 'shared_browser' && e.oneAfterAnother) {
    const gap = e.gapSeconds == null ? '' : `, the next check-in page opened ${seconds(e.gapSeconds)} after the previous one was sent`;
    return (
      `Checked in one after another with the students below, from the same network address with the same browser signature: never open at the same time${gap}, ` +
      `and nobody else from that address and browser checked in in the ${minutes} minutes before. One phone checking in several students from private tabs ` +
      '(or clearing its cookies in between) looks like this; so can two classmates with identical phones who arrive one right after the other at a quiet moment.'
    );
  }
  if (flag.reason === 'shared_browser') {
    return (
      `Checked in from the same network address, with the same browser signature, within ${minutes} minutes of the students below, not each from a phone ` +
      'its student had used before. One phone opened in private tabs looks like this; so, now and then, does a new phone identical to a classmate’s on the school Wi-Fi.'
    );
  }
  return e.deviceCookie === 'replaced'
    ? 'The browser sent a device cookie other than the one it was given when it opened the check-in page: its cookies were cleared or swapped in between.'
    : 'The browser sent no device cookie, though the check-in page always gives one before the form can be sent: its cookies were cleared or are blocked.';
}
