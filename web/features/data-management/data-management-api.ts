import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { UploadType } from '../../../common/constants.ts';
import { sisStatusSchema } from '../../../common/sis.ts';
import { fileUploadSchema, importColumnsResponseSchema, uploadResultSchema, type RowProblemOut, type UploadResult } from '../../../common/uploads.ts';
import { wizardSchema, type WizardState } from '../../../common/upload-wizard.ts';
import { ApiError, apiParse } from '../../lib/api.ts';
import { useSettings } from '../../lib/shared-queries.ts';

export const WIZARD_KEY = ['/api/upload-wizard'] as const;
export const UPLOADS_KEY = ['/api/file-uploads'] as const;
const COLUMNS_KEY = ['/api/import-columns'] as const;
export const SIS_STATUS_KEY = ['/api/sis/status'] as const;

export const useWizard = () => useQuery({ queryKey: WIZARD_KEY, queryFn: () => apiParse(wizardSchema, 'GET', '/api/upload-wizard') });
export const useFileUploads = () => useQuery({ queryKey: UPLOADS_KEY, queryFn: () => apiParse(z.array(fileUploadSchema), 'GET', '/api/file-uploads') });
export const useImportColumns = () => useQuery({ queryKey: COLUMNS_KEY, queryFn: () => apiParse(importColumnsResponseSchema, 'GET', '/api/import-columns') });
export const useSisStatus = () => useQuery({ queryKey: SIS_STATUS_KEY, queryFn: () => apiParse(sisStatusSchema, 'GET', '/api/sis/status') });

/** The upload limit in force (the maxFileUploadSizeMB setting, at most SPEC's 10 MB). */
export function useUploadLimitMb(): number {
  return useSettings().data?.system.maxFileUploadSizeMB ?? 10;
}

function useWizardMutation<V>(fn: (v: V) => Promise<WizardState>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: (state) => queryClient.setQueryData(WIZARD_KEY, state) });
}
export const useSetWizardStep = () => useWizardMutation((currentStep: number) => apiParse(wizardSchema, 'PUT', '/api/upload-wizard', { currentStep }));
export const useResetWizard = () => useWizardMutation(() => apiParse(wizardSchema, 'POST', '/api/upload-wizard/reset'));

export type UploadFailureBody = { message?: string; errors?: RowProblemOut[]; errorCount?: number; notes?: string[] };
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
          resolve(uploadResultSchema.parse(JSON.parse(xhr.responseText)));
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
