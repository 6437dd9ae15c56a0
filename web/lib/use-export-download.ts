import { useState } from 'react';
import { toast } from './toast.ts';
import { handleUnauthorized } from './unauthorized.ts';

/**
 * A download behind an Export button: `exporting` while it runs (the button says "Exporting..."),
 * and a failure is SPEC §8's Unauthorized flow for a 401, else an Export Failed toast saying
 * `failure`. `run` resolves true when the file was handed to the browser.
 */
export function useExportDownload(failure: string): { exporting: boolean; run: (download: () => Promise<unknown>) => Promise<boolean> } {
  const [exporting, setExporting] = useState(false);
  const run = async (download: () => Promise<unknown>) => {
    setExporting(true);
    try {
      await download();
      return true;
    } catch (e) {
      if (!handleUnauthorized(e)) toast({ title: 'Export Failed', description: failure, variant: 'destructive' });
      return false;
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
