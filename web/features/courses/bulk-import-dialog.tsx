import { FileSpreadsheet, Upload } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { MAX_UPLOAD_BYTES } from '../../../common/constants.ts';
import { COURSE_LIST, COURSE_LIST_COLUMNS } from '../../../common/import-columns.ts';
import { ruleText } from '../../../common/import-column-rules.ts';
import { ImportProblemsTable } from '../../components/import-problems-table.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { usePrograms } from '../../lib/shared-queries.ts';
import { cn } from '../../lib/cn.ts';
import { importProblems, useBulkUploadCourses } from './courses-api.ts';

const INVALID_FILE_TYPE = 'Invalid File Type: Please upload a CSV or Excel file (.csv, .xls, .xlsx).';
const FILE_TOO_LARGE = 'File Too Large: Please upload a file smaller than 10MB.';
const UPLOAD_FAILED = 'Failed to upload courses. Please check the file format.';

/** The simpler course layout of SPEC §3, described by the same contract the importer checks. */
const COLUMNS = COURSE_LIST_COLUMNS.map((name) => {
  const column = COURSE_LIST.columns.find((c) => c.name === name)!;
  return { name, note: `${column.description} ${ruleText(column.rule)}.`, required: column.required };
});

/** SPEC §5: .csv, .xls or .xlsx, at most 10 MB; checked here before anything is sent. */
function checkFile(file: File): string | null {
  if (!/\.(csv|xlsx?)$/i.test(file.name)) return INVALID_FILE_TYPE;
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}

export function BulkImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      focusFirstField
      open={open}
      onOpenChange={onOpenChange}
      title="Bulk Import Courses"
      description="Upload a CSV or Excel file with one course per row. Nothing is imported unless every row is valid; a course already known by its SIS ID or code is updated, not duplicated."
      size="lg"
    >
      {open ? <ImportForm onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function ImportForm({ onDone }: { onDone: () => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useBulkUploadCourses();
  const programs = usePrograms();
  const problems = upload.isError ? importProblems(upload.error) : [];
  const serverMessage = upload.isError ? readErrorBody(upload.error).message : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError('Choose a file to import.');
    const problem = checkFile(file);
    setFileError(problem);
    if (problem) return;
    upload.mutate(file, {
      onSuccess: (result) => {
        const n = result.imported;
        notifySuccess('Import complete', `Successfully imported ${n} courses. ${result.errors.length} errors.`);
        onDone();
      },
      onError: (e) => notifyFailure(e, UPLOAD_FAILED),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Bulk import courses">
      <section aria-labelledby={`${inputId}-cols`} className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3">
        <h3 id={`${inputId}-cols`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <FileSpreadsheet aria-hidden="true" className="size-4 text-slate-600" /> Expected columns (header row first)
        </h3>
        <ul className="mt-2 grid gap-x-6 gap-y-1 text-xs text-slate-700 sm:grid-cols-2">
          {COLUMNS.map((c) => (
            <li key={c.name}>
              <code className="font-semibold text-slate-900">{c.name}</code>
              {c.required ? <span className="text-red-700"> (required)</span> : null} — {c.note}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-slate-600">
          Course ids are in the ID column of the course table.
          {programs.data?.length
            ? ` Program ids: ${[...programs.data]
                .sort((a, b) => a.id - b.id)
                .map((p) => `${p.id} = ${p.programName}`)
                .join(' · ')}.`
            : ''}
        </p>
      </section>

      <div className="mt-5">
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
          File
        </label>
        <input
          id={inputId}
          type="file"
          name="file"
          accept=".csv,.xls,.xlsx"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? `${inputId}-error` : `${inputId}-hint`}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            setFile(chosen);
            setFileError(chosen ? checkFile(chosen) : null);
            upload.reset();
          }}
          className={cn(
            'mt-1.5 block w-full rounded-lg border bg-white text-sm text-slate-700 shadow-sm',
            'file:mr-3 file:h-10 file:cursor-pointer file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-4 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-100',
            fileError ? 'border-red-600' : 'border-slate-300',
          )}
        />
        {fileError ? (
          <p id={`${inputId}-error`} className="mt-1.5 text-xs font-medium text-red-700">
            {fileError}
          </p>
        ) : (
          <p id={`${inputId}-hint`} className="mt-1.5 text-xs text-slate-600">
            CSV (UTF-8) or Excel (.xls, .xlsx), up to 10 MB.
          </p>
        )}
      </div>

      {upload.isError ? (
        <div className="mt-5 space-y-3">
          <Alert>
            <p className="font-semibold">{UPLOAD_FAILED}</p>
            {serverMessage ? <p className="mt-0.5">{serverMessage}</p> : null}
          </Alert>
          {problems.length > 0 ? <ImportProblemsTable errors={problems} /> : null}
        </div>
      ) : null}

      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={upload.isPending || !file || Boolean(fileError)}>
          {upload.isPending ? <Spinner className="size-4" /> : <Upload aria-hidden="true" className="size-4" />}
          {upload.isPending ? 'Importing…' : 'Import'}
        </Button>
      </ModalFooter>
    </form>
  );
}
