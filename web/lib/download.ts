import { apiRequest } from './api.ts';

/**
 * GET a file the server sends as an attachment and hand it to the browser's downloads through a
 * temporary link. The name is the server's (Content-Disposition), else `fallbackName`; `name`
 * overrides both. With `post`, the file comes from a POST of that JSON body (an export that also
 * records something). Resolves with the name used.
 */
export async function downloadFile(url: string, opts: { fallbackName: string; name?: string; post?: unknown }): Promise<string> {
  const res = opts.post === undefined ? await apiRequest('GET', url) : await apiRequest('POST', url, opts.post);
  const blob = await res.blob();
  const name = opts.name ?? /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? opts.fallbackName;
  saveBlob(blob, name);
  return name;
}

/** Hand text made in the page (e.g. recovery codes) to the browser's downloads. */
export function downloadText(name: string, text: string): void {
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);
}

function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // Let the download start before the blob goes away.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }
}

/** Today as YYYY-MM-DD in the browser's time zone, for download file names. */
export function localDate(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
