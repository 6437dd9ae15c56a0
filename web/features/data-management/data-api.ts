import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UploadType } from '../../../common/constants.ts';
import type { FileUpload, ImportColumnsResponse, RowProblemOut, SisStatus, UploadResult } from '../../../common/import-columns.ts';
import type { WizardState } from '../../../common/upload-wizard.ts';
import type { Settings } from '../../../common/settings.ts';
import { ApiError, apiJson, apiRequest } from '../../lib/api.ts';

export const WIZARD_KEY = ['/api/upload-wizard'] as const;
export const UPLOADS_KEY = ['/api/file-uploads'] as const;
export const COLUMNS_KEY = ['/api/import-columns'] as const;
export const SIS_STATUS_KEY = ['/api/sis/status'] as const;
const SETTINGS_KEY = ['/api/settings'] as const;

export const useWizard = () => useQuery<WizardState>({ queryKey: WIZARD_KEY });
export const useFileUploads = () => useQuery<FileUpload[]>({ queryKey: UPLOADS_KEY });
export const useImportColumns = () => useQuery<ImportColumnsResponse>({ queryKey: COLUMNS_KEY });
export const useSisStatus = () => useQuery<SisStatus>({ queryKey: SIS_STATUS_KEY });

/** The upload limit in force (the maxFileUploadSizeMB setting, at most SPEC's 10 MB). */
export function useUploadLimitMb(): number {
  const settings = useQuery<Settings>({ queryKey: SETTINGS_KEY });
  return settings.data?.system.maxFileUploadSizeMB ?? 10;
}

function useWizardMutation<V>(fn: (v: V) => Promise<WizardState>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: (state) => queryClient.setQueryData(WIZARD_KEY, state) });
}
export const useSetWizardStep = () => useWizardMutation((currentStep: number) => apiJson<WizardState>('PUT', '/api/upload-wizard', { currentStep }));
export const useResetWizard = () => useWizardMutation(() => apiJson<WizardState>('POST', '/api/upload-wizard/reset'));

export type UploadFailureBody = { message?: string; errors?: RowProblemOut[]; errorCount?: number };
export type UploadPhase = { phase: 'uploading'; percent: number } | { phase: 'processing' };

/** The server's error body of a refused upload, when it is one. */
export function readUploadFailure(error: unknown): UploadFailureBody | null {
  if (!(error instanceof ApiError)) return null;
  try {
    return JSON.parse(error.bodyText) as UploadFailureBody;
  } catch {
    return { message: error.bodyText || undefined };
  }
}

/**
 * POST /api/upload/{type} with XMLHttpRequest, whose upload events give real progress (fetch has
 * none). Resolves with the result; rejects with an ApiError carrying the body, like apiRequest.
 */
export function uploadFile(type: UploadType, file: File, opts: { dryRun: boolean; onPhase: (p: UploadPhase) => void }): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/upload/${type}${opts.dryRun ? '?dryRun=true' : ''}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onPhase({ phase: 'uploading', percent: Math.round((e.loaded / e.total) * 100) });
    };
    // The bytes are sent; the server now checks every row and writes.
    xhr.upload.onload = () => opts.onPhase({ phase: 'processing' });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadResult);
        } catch {
          reject(new ApiError(xhr.status, 'The server answered with something other than JSON', xhr.statusText));
        }
      } else reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, '', 'Network error'));
    const form = new FormData();
    form.append('file', file);
    opts.onPhase({ phase: 'uploading', percent: 0 });
    xhr.send(form);
  });
}

/** Fetch a file the server sends as an attachment and hand it to the browser's downloads. */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const res = await apiRequest('GET', url);
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

export const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`);
