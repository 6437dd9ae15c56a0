import { createColumnHelper, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { Mail, MessageSquare, Timer } from 'lucide-react';
import type { ReactNode } from 'react';
import { EMAIL_NOT_CONFIGURED, type BackgroundJob } from '../../../common/notifications.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatCount } from '../../lib/format.ts';
import { useBackgroundJobs, useDeliveryStatus, useSendTestEmail } from './settings-api.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › System for administrators: whether e-mail and SMS act, the outbox, the background jobs. */
export function DeliveryPanel({ canSendTest }: { canSendTest: boolean }) {
  const delivery = useDeliveryStatus(true);
  const jobs = useBackgroundJobs(true);
  const test = useSendTestEmail();
  const d = delivery.data;
  return (
    <Card>
      <div className="border-b border-slate-100 px-5 py-4 sm:px-6">
        <h2 className="text-base font-semibold text-slate-900">E-mail, Text Messages and Background Jobs</h2>
        <p className="mt-0.5 text-sm text-slate-600">Every message goes through an outbox and is retried until it is delivered or refused for good.</p>
      </div>
      {!d ? (
        <p role={delivery.isError ? 'alert' : 'status'} className="flex items-center justify-center gap-2 px-6 py-8 text-sm text-slate-600">
          {delivery.isError ? (
            'The delivery status could not be loaded.'
          ) : (
            <>
              <Spinner className="size-4 text-blue-700" /> Loading…
            </>
          )}
        </p>
      ) : (
        <div className="grid gap-px bg-slate-100 sm:grid-cols-2">
          <Section icon={Mail} title="E-mail" badge={d.email.configured ? <Badge tone="green">Configured</Badge> : <Badge tone="amber">Not configured</Badge>}>
            {d.email.configured ? (
              <p className="text-sm text-slate-700">
                Sent as <span className="font-medium break-all text-slate-900">{d.email.from}</span>.
              </p>
            ) : (
              <p className="text-sm text-slate-700">{EMAIL_NOT_CONFIGURED} E-mail switches are saved but nothing is sent. See docs/integrations/smtp.md.</p>
            )}
            <dl className="mt-3 grid grid-cols-3 gap-2 text-center text-sm" data-testid="outbox-counts">
              <Count label="Queued" value={d.outbox.queued} />
              <Count label="Sent" value={d.outbox.sent} />
              <Count label="Failed" value={d.outbox.failed} />
            </dl>
            {d.outbox.lastError ? (
              <p className="mt-3 text-sm text-slate-700">
                <span className="font-medium text-slate-900">Last error</span>
                {d.outbox.lastErrorAt ? ` (${dateTime.format(Date.parse(d.outbox.lastErrorAt))})` : ''}:{' '}
                <span className="break-words">{d.outbox.lastError}</span>
              </p>
            ) : null}
            {canSendTest && d.email.configured ? (
              <div className="mt-3">
                <Button
                  type="button"
                  variant="secondary"
                  disabled={test.isPending}
                  onClick={() => test.mutate(undefined, { onError: (err) => notifyFailure(err, 'The test e-mail could not be queued.') })}
                >
                  {test.isPending ? <Spinner className="size-4" /> : <Mail aria-hidden="true" className="size-4" />}
                  Send me a test e-mail
                </Button>
              </div>
            ) : null}
          </Section>
          <Section
            icon={MessageSquare}
            title="Text messages (SMS)"
            badge={d.sms.configured ? <Badge tone="green">Configured</Badge> : <Badge tone="amber">Not configured</Badge>}
          >
            <p className="text-sm text-slate-700">
              {d.sms.configured
                ? 'Student absence notices can be sent by text where the school switches them on.'
                : 'No SMS provider is set (SMS_API_URL, SMS_USERNAME, SMS_PASSWORD, SMS_FROM): the SMS switch is saved but nothing is sent. See docs/integrations/sms.md.'}
            </p>
          </Section>
        </div>
      )}
      <section aria-labelledby="jobs-heading" className="border-t border-slate-100 px-5 py-4 sm:px-6">
        <h3 id="jobs-heading" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <Timer aria-hidden="true" className="size-4 text-blue-700" /> Background jobs
        </h3>
        {jobs.data && jobs.data.length > 0 ? (
          <JobsTable jobs={jobs.data} />
        ) : (
          <p className="mt-2 text-sm text-slate-600">{jobs.isLoading ? 'Loading…' : 'No job has run yet on this database.'}</p>
        )}
      </section>
    </Card>
  );
}

const jobColumn = createColumnHelper<BackgroundJob>();
const lastRun = (job: BackgroundJob) => job.runs.find((r) => r.state === 'completed' || r.state === 'failed' || r.state === 'active') ?? job.runs[0];
const JOB_COLUMNS = [
  jobColumn.accessor('name', { header: 'Job', meta: { rowHeader: true, className: 'font-medium text-slate-900' } }),
  jobColumn.accessor('schedule', { header: 'Schedule (UTC)', cell: ({ getValue }) => <span className="font-mono text-xs">{getValue() ?? '—'}</span> }),
  jobColumn.display({
    id: 'lastRun',
    header: 'Last run',
    cell: ({ row }) => {
      const last = lastRun(row.original);
      return last ? dateTime.format(Date.parse(last.completedAt ?? last.startedAt ?? last.createdAt)) : 'Not yet';
    },
  }),
  jobColumn.display({
    id: 'result',
    header: 'Result',
    cell: ({ row }) => {
      const last = lastRun(row.original);
      const tone = last?.state === 'completed' ? 'green' : last?.state === 'failed' ? 'red' : 'slate';
      if (!last) return '—';
      return (
        <>
          <Badge tone={tone}>{last.state}</Badge>
          {last.retryCount ? (
            <span className="ml-2 text-xs text-slate-600">
              after {last.retryCount} {last.retryCount === 1 ? 'retry' : 'retries'}
            </span>
          ) : null}
          {last.error ? <p className="mt-1 text-xs [overflow-wrap:anywhere] text-red-700">{last.error}</p> : null}
        </>
      );
    },
  }),
] as ColumnDef<BackgroundJob, never>[];

/** The jobs with their last run: a table on a screen, a card per job on a phone (a table made the tab wider than a phone). */
function JobsTable({ jobs }: { jobs: BackgroundJob[] }) {
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: jobs,
    columns: JOB_COLUMNS,
    enableSorting: false,
    autoResetPageIndex: false,
    getRowId: (j) => j.name,
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <DataTable
      table={table}
      caption="Background jobs and their last run"
      empty="No job has run yet on this database."
      className="mt-2 -mx-5 sm:-mx-6"
      cardsOnPhone
    />
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-slate-50 px-2 py-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900">{formatCount(value)}</dd>
    </div>
  );
}

function Section({ icon: Icon, title, badge, children }: { icon: typeof Mail; title: string; badge: ReactNode; children: ReactNode }) {
  return (
    <section className="bg-white px-5 py-4 sm:px-6" aria-label={title}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <Icon aria-hidden="true" className="size-4 text-blue-700" />
          {title}
        </h3>
        {badge}
      </div>
      {children}
    </section>
  );
}
