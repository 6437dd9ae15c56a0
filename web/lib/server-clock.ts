import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * The server's clock as seen from this browser. Session expiry and QR rotation are decided by the
 * server, and a laptop's clock can be off by minutes; every API answer carries a `Date` header
 * (one-second resolution), which bounds the offset between the two clocks. Bounds from several
 * answers narrow it down. While the local clock agrees with every answer, the offset is zero.
 * The one home of the server clock on the admin screens: lib/api.ts feeds it every answer's Date
 * header. (The scan pages count from the moment their page arrived: web/scan/enhance.ts.)
 */
let low = -Infinity;
let high = Infinity;

/** The Date header of an answer sent at `sentAt` and received at `receivedAt` (local ms). */
export function noteServerDate(res: Response, sentAt: number, receivedAt: number): void {
  const date = Date.parse(res.headers.get('date') ?? '');
  if (!Number.isNaN(date)) noteServerReading(date, 1000, sentAt, receivedAt);
}

/** A server time `serverMs` (precise to `resolutionMs`) read somewhere between sentAt and receivedAt. */
export function noteServerReading(serverMs: number, resolutionMs: number, sentAt: number, receivedAt: number): void {
  const lo = serverMs - receivedAt;
  const hi = serverMs + resolutionMs - sentAt;
  if (lo > high || hi < low) {
    // One of the clocks was adjusted: start over from this answer.
    low = lo;
    high = hi;
  } else {
    low = Math.max(low, lo);
    high = Math.min(high, hi);
  }
}

/** Milliseconds to add to Date.now() to read the server's clock. */
export function serverOffset(): number {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return 0;
  if (low <= 0 && high >= 0) return 0;
  return Math.round((low + high) / 2);
}

export const serverNow = (): number => Date.now() + serverOffset();

// One shared one-second ticker for every countdown on screen (SPEC §9: refreshed every 1 s).
let now = serverNow();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = serverNow();
    timer = setInterval(() => {
      now = serverNow();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The server's time in ms, re-rendering the caller every second. */
export function useServerNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/**
 * The server's time, updated only when one of these instants passes: for screens that must
 * notice an expiry without re-rendering every second.
 */
export function useNowAfter(instants: readonly string[]): number {
  const [now, setNow] = useState(serverNow);
  const next = instants
    .map((i) => Date.parse(i))
    .filter((t) => t > now)
    .sort((a, b) => a - b)[0];
  useEffect(() => {
    if (next === undefined) return;
    const timer = setTimeout(() => setNow(serverNow()), Math.max(0, next - serverNow()) + 50);
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}

/** Today's date (YYYY-MM-DD) on this device, by the server's clock: the latest "as of" a ledger read accepts. */
export const serverToday = (): string => new Date(serverNow()).toLocaleDateString('en-CA');
