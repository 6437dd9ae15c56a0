/** SPEC §9: session ids are shown truncated to 8 characters. */
export const shortId = (id: string): string => id.slice(0, 8);

export function formatMinutes(minutes: number | null): string | null {
  if (minutes == null) return null;
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
