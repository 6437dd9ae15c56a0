/** Code that depends on the time takes a Clock, so tests can hand it a fixed one. */
export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };
export function fixedClock(at: Date | string): Clock & { set: (d: Date | string) => void; advance: (ms: number) => void } {
  let t = new Date(at).getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
