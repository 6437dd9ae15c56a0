import { describe, expect, it } from 'vitest';
import { proxyFlagExplanation } from './proxy-evidence.ts';

const base = { checkedInAt: '2026-03-02T14:01:00.000Z', ipAddress: '10.0.0.1', signature: 'abcdef012345', windowMinutes: 3 };

describe('proxyFlagExplanation', () => {
  it('says why check-ins of students new to Muster were flagged: one after another, never open at once, at a quiet moment', () => {
    const text = proxyFlagExplanation({ reason: 'shared_browser', evidence: { ...base, oneAfterAnother: true, gapSeconds: 12 } });
    expect(text).toMatch(/^Checked in one after another with the students below/);
    expect(text).toContain('never open at the same time, the next check-in page opened 12 seconds after the previous one was sent');
    expect(text).toContain('nobody else from that address and browser checked in in the 3 minutes before');
    expect(text).toContain('two classmates with identical phones who arrive one right after the other');
    expect(proxyFlagExplanation({ reason: 'shared_browser', evidence: { ...base, oneAfterAnother: true, gapSeconds: 1 } })).toContain('opened 1 second after');
  });

  it('keeps the same-browser wording for a new phone beside phones known to their students', () => {
    expect(proxyFlagExplanation({ reason: 'shared_browser', evidence: base })).toMatch(
      /^Checked in from the same network address, with the same browser signature, within 3 minutes of the students below, not each from a phone its student had used before/,
    );
  });

  it('explains a dropped device cookie', () => {
    expect(proxyFlagExplanation({ reason: 'dropped_cookie', evidence: { ...base, deviceCookie: 'replaced' } })).toMatch(/other than the one it was given/);
    expect(proxyFlagExplanation({ reason: 'dropped_cookie', evidence: { ...base, deviceCookie: 'missing' } })).toMatch(/sent no device cookie/);
  });
});
