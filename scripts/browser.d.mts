// Types of scripts/browser.mjs (plain Node, so the CLI runs before `npm install`).

export type BrowserSearch = {
  env?: NodeJS.ProcessEnv;
  /** Whether an executable file is at this path. */
  exists?: (file: string) => boolean;
  /** A program name's path on PATH, or null. */
  which?: (name: string) => string | null;
};

export const BROWSER_CANDIDATES: readonly string[];
export function isExecutableFile(file: string): boolean;
export function searchPath(name: string, env?: NodeJS.ProcessEnv, exists?: (file: string) => boolean): string | null;
export function findBrowser(search?: BrowserSearch): string | null;
export function missingBrowserMessage(machine: { apt: boolean; root: boolean }): string;
export function requireBrowser(search?: Omit<BrowserSearch, 'which'>): string;
export function ensureBrowser(options?: {
  env?: NodeJS.ProcessEnv;
  exists?: (file: string) => boolean;
  isRoot?: boolean;
  run?: (command: string, args: string[], env: NodeJS.ProcessEnv) => number;
  print?: (line: string) => void;
  fail?: (line: string) => void;
}): number;
