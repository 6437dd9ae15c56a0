import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Download } from 'lucide-react';
import { useState } from 'react';
import type { UploadType } from '../../../common/constants.ts';
import type { ImportColumnsResponse } from '../../../common/uploads.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { downloadFile } from '../../lib/download.ts';
import { useImportColumns } from './data-management-api.ts';

/** GET /api/templates/{type}, saved under the template's name, with SPEC §8's toast. */
export async function downloadTemplate(type: UploadType, fileName: string): Promise<void> {
  try {
    const name = await downloadFile(`/api/templates/${type}`, { fallbackName: fileName });
    notifySuccess('Template Downloaded', `${name} has been downloaded successfully.`);
  } catch (e) {
    notifyFailure(e, `${fileName} could not be downloaded. Please try again.`, 'Download Failed');
  }
}

type TypeDoc = ImportColumnsResponse['types'][number];

const rule = createColumnHelper<TypeDoc['columns'][number]>();
const COLUMN_RULES = [
  rule.accessor('name', {
    header: 'Column',
    cell: ({ row: { original: c } }) => (
      <>
        <code className="text-xs">{c.name}</code>
        {c.required ? <span className="ml-1 text-xs font-semibold text-red-700">required</span> : null}
        {c.aliases.length > 0 ? <span className="block text-xs font-normal text-slate-600">also {c.aliases.join(', ')}</span> : null}
      </>
    ),
    meta: { rowHeader: true, className: 'whitespace-nowrap' },
  }),
  rule.accessor('rule', { header: 'Rule' }),
  rule.accessor('description', { header: 'Meaning' }),
  rule.accessor('example', { header: 'Example', cell: ({ getValue }) => <span className="break-all">{getValue()}</span> }),
];

/**
 * CSV Templates: a download per type and the column lists, upload sequence and rules, all from
 * GET /api/import-columns, the definitions the importer itself validates with.
 */
export function TemplatesTab() {
  const docs = useImportColumns();
  if (docs.isLoading) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4 text-blue-700" /> Loading the column definitions…
      </p>
    );
  }
  if (!docs.data) return <Alert>The column definitions could not be loaded. Reload the page to try again.</Alert>;
  const { types, fileRules } = docs.data;
  const label = (step: number) => types.find((t) => t.step === step)?.label ?? String(step);
  return (
    <div className="grid gap-6">
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Download templates</h2>
        <p className="mt-1 text-sm text-slate-600">Each template has the exact header row and a few sample rows that import cleanly in sequence.</p>
        <div className="mt-4 flex flex-wrap gap-2">
          {types.map((t) => (
            <TemplateButton key={t.type} type={t.type} fileName={t.templateFile} label={t.label} />
          ))}
        </div>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Required upload sequence</h2>
          <ol className="mt-3 grid gap-2 text-sm text-slate-700">
            {types.map((t) => (
              <li key={t.type} className="flex gap-3">
                <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-700 text-xs font-bold text-white" aria-hidden="true">
                  {t.step}
                </span>
                <span>
                  <span className="font-semibold text-slate-900">
                    <span className="sr-only">Step {t.step}: </span>
                    {t.label}
                  </span>{' '}
                  {t.prerequisites.length > 0 ? `after ${t.prerequisites.map(label).join(', ')}` : 'first'}
                </span>
              </li>
            ))}
          </ol>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Validation and file rules</h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-700">
            {fileRules.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </Card>
      </div>

      <section aria-labelledby="columns-by-type" className="grid gap-6">
        <h2 id="columns-by-type" className="text-lg font-semibold text-slate-900">
          Columns by type
        </h2>
        {types.map((t) => (
          <TypeColumns key={t.type} doc={t} />
        ))}
      </section>
    </div>
  );
}

function TemplateButton({ type, fileName, label }: { type: UploadType; fileName: string; label: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      disabled={busy}
      aria-label={`Download ${label} template (${fileName})`}
      onClick={async () => {
        setBusy(true);
        await downloadTemplate(type, fileName);
        setBusy(false);
      }}
    >
      {busy ? <Spinner className="size-4" /> : <Download aria-hidden="true" className="size-4" />}
      {fileName}
    </Button>
  );
}

function ColumnList({ title, names }: { title: string; names: string[] }) {
  return (
    <div>
      <h4 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h4>
      {names.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None</p>
      ) : (
        <ul className="mt-1.5 flex flex-wrap gap-1.5">
          {names.map((n) => (
            <li key={n}>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{n}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TypeColumns({ doc }: { doc: TypeDoc }) {
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: doc.columns, columns: COLUMN_RULES, getRowId: (c) => c.name, getCoreRowModel: getCoreRowModel(), enableSorting: false });
  const required = doc.columns.filter((c) => c.required);
  const optional = doc.columns.filter((c) => !c.required && !c.sis);
  const sis = doc.columns.filter((c) => c.sis);
  return (
    <Card className="p-5 sm:p-6">
      <h3 className="text-base font-semibold text-slate-900">
        {doc.step}. {doc.label} <span className="font-normal text-slate-600">({doc.templateFile})</span>
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Re-importing updates the record with the same <code className="text-xs">{doc.key}</code>. {doc.notes.join(' ')}
      </p>
      <div className="mt-4 grid gap-4 md:grid-cols-3">
        <ColumnList title="Required columns" names={required.map((c) => c.name)} />
        <ColumnList title="Optional columns" names={optional.map((c) => c.name)} />
        <ColumnList title="SIS integration columns" names={sis.map((c) => c.name)} />
      </div>
      <details className="mt-4 rounded-lg border border-slate-200">
        <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-slate-800">Every column with its rule</summary>
        <DataTable table={table} caption={`${doc.label} columns`} empty="No columns" cardsOnPhone />
      </details>
    </Card>
  );
}
