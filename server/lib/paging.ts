/** `%term%` for ILIKE with the user's wildcards escaped. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
