import { useQueryClient } from '@tanstack/react-query';
import { Eye, FileUp, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { UploadType } from '../../../common/constants.ts';
import type { UploadResult } from '../../../common/uploads.ts';
import { stepCompletedMessage } from '../../../common/upload-wizard.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { isUnauthorizedError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { handleUnauthorized } from '../../lib/unauthorized.ts';
import {
  readUploadFailure,
  SIS_STATUS_KEY,
  UPLOADS_KEY,
  uploadFile,
  useUploadLimitMb,
  WIZARD_KEY,
  type UploadFailureBody,
  type UploadPhase,
} from './data-management-api.ts';
import { ImportProblemsTable } from '../../components/import-problems-table.tsx';
import { formatBytes } from '../../lib/format.ts';

const UPLOAD_FAILED = 'Upload Failed';
const UPLOAD_FAILED_TEXT = 'Failed to upload file. Please try again.';

type Outcome =
  | { kind: 'preview'; result: UploadResult }
  // A dry run did its job: it found what to fix. Not a failure (decision 047).
  | { kind: 'problems'; body: UploadFailureBody & { errors: NonNullable<UploadFailureBody['errors']> } }
  | { kind: 'failed'; message: string; body: UploadFailureBody | null }
  | null;

/** 'Dry run found 2 problems; nothing was imported' */
const dryRunFound = (n: number) => `Dry run found ${n} problem${n === 1 ? '' : 's'}; nothing was imported`;

/** How the server read the file ('Dates read as month/day/year (US), …'), when it says. */
function ReadNotes({ notes }: { notes: readonly string[] | undefined }) {
  if (!notes || notes.length === 0) return null;
  return (
    <ul aria-label="How the file was read" className="mt-1 list-disc space-y-0.5 pl-5">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

/**
 * The wizard's uploader for one step: CSV only, within the upload limit (SPEC §5), checked here
 * before sending; then real upload progress, a processing state while the server checks every
 * row, and either the row/column problems or the result. Preview is a dry run: nothing is saved.
 */
export function FileUploader({ type, step, label }: { type: UploadType; step: number; label: string }) {
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const limitMb = useUploadLimitMb();
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0] ?? null;
    setOutcome(null);
    setPickError(null);
    setFile(null);
    if (!chosen) return;
    if (!chosen.name.toLowerCase().endsWith('.csv')) {
      toast({ title: 'Invalid File Type', description: 'Please upload a CSV file (.csv).', variant: 'destructive' });
      setPickError('Invalid File Type: Please upload a CSV file (.csv).');
      e.target.value = '';
      return;
    }
    if (chosen.size > limitMb * 1024 * 1024) {
      toast({ title: 'File Too Large', description: `Please upload a file smaller than ${limitMb}MB.`, variant: 'destructive' });
      setPickError(`File Too Large: Please upload a file smaller than ${limitMb}MB.`);
      e.target.value = '';
      return;
    }
    setFile(chosen);
  };

  const send = async (dryRun: boolean) => {
    if (!file) return;
    setOutcome(null);
    try {
      const result = await uploadFile(type, file, { dryRun, onPhase: setPhase });
      if (dryRun) {
        setOutcome({ kind: 'preview', result });
      } else {
        notifySuccess('Upload Successful', stepCompletedMessage(step));
        setFile(null);
        if (inputRef.current) inputRef.current.value = '';
        await Promise.all([WIZARD_KEY, SIS_STATUS_KEY].map((key) => queryClient.invalidateQueries({ queryKey: key })));
      }
    } catch (error) {
      if (handleUnauthorized(error)) return;
      const body = readUploadFailure(error);
      if (dryRun && body?.errors && body.errors.length > 0) {
        setOutcome({ kind: 'problems', body: { ...body, errors: body.errors } });
        toast({ title: 'Dry run finished', description: dryRunFound(body.errorCount ?? body.errors.length) });
        return;
      }
      const message = body?.message || UPLOAD_FAILED_TEXT;
      setOutcome({ kind: 'failed', message, body });
      if (!isUnauthorizedError(error)) toast({ title: UPLOAD_FAILED, description: message, variant: 'destructive' });
    } finally {
      setPhase(null);
      void queryClient.invalidateQueries({ queryKey: UPLOADS_KEY });
    }
  };

  const busy = phase !== null;
  return (
    <div className="grid gap-4">
      <div className="rounded-xl border-2 border-dashed border-slate-300 bg-slate-50/60 p-5">
        <label htmlFor={inputId} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <FileUp aria-hidden="true" className="size-4 text-blue-700" />
          {label} CSV file
        </label>
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          CSV only (.csv), at most {limitMb} MB. The header row must match the template.
        </p>
        <input
          ref={inputRef}
          id={inputId}
          name="file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby={hintId}
          disabled={busy}
          onChange={pick}
          className="mt-3 block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-blue-700 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-blue-800"
        />
        {file ? (
          <p className="mt-2 text-sm text-slate-700">
            Selected: <span className="font-medium">{file.name}</span> ({formatBytes(file.size)})
          </p>
        ) : null}
        {pickError ? (
          <p className="mt-2 text-sm font-medium text-red-700" role="alert">
            {pickError}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button onClick={() => void send(false)} disabled={!file || busy} icon={Upload}>
            Upload {label}
          </Button>
          <Button variant="secondary" onClick={() => void send(true)} disabled={!file || busy} icon={Eye}>
            Preview (dry run)
          </Button>
        </div>
      </div>

      {phase ? <UploadProgress phase={phase} /> : null}

      {outcome?.kind === 'preview' ? (
        <Alert variant="info">
          <p className="font-semibold">Preview: every row is valid</p>
          <p>
            {outcome.result.rows} row{outcome.result.rows === 1 ? '' : 's'} checked: {outcome.result.created} would be created and {outcome.result.updated}{' '}
            updated. Nothing was saved.
          </p>
          <ReadNotes notes={outcome.result.notes} />
        </Alert>
      ) : null}

      {outcome?.kind === 'problems' ? (
        <div className="grid gap-3">
          <Alert variant="warning">
            <p className="font-semibold">{dryRunFound(outcome.body.errorCount ?? outcome.body.errors.length)}</p>
            <ReadNotes notes={outcome.body.notes} />
          </Alert>
          <ImportProblemsTable errors={outcome.body.errors} total={outcome.body.errorCount ?? outcome.body.errors.length} dryRun />
        </div>
      ) : null}

      {outcome?.kind === 'failed' ? (
        <div className="grid gap-3">
          <Alert>
            <p className="font-semibold">{UPLOAD_FAILED}</p>
            <p>{outcome.message}</p>
          </Alert>
          {outcome.body?.errors && outcome.body.errors.length > 0 ? (
            <ImportProblemsTable errors={outcome.body.errors} total={outcome.body.errorCount ?? outcome.body.errors.length} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function UploadProgress({ phase }: { phase: UploadPhase }) {
  const labelId = useId();
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" aria-live="polite">
      {phase.phase === 'uploading' ? (
        <>
          <p id={labelId} className="flex items-center justify-between text-sm font-medium text-slate-800">
            <span>Uploading…</span>
            <span>{phase.percent}%</span>
          </p>
          <div
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phase.percent}
            className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-blue-700 transition-[width]" style={{ width: `${phase.percent}%` }} />
          </div>
        </>
      ) : (
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <Spinner className="size-4 text-blue-700" />
          Processing: checking every row…
        </p>
      )}
    </div>
  );
}
