/**
 * SPEC §4: a countdown as mm:ss; minutes may exceed 59 for long sessions. For the admin screens
 * (web/lib/format.ts) and the scan page the server renders (server/modules/scan).
 */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
