import { Archive, Database, HardDrive, History } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useBackUpNow, useSystemStatus } from './settings-api.ts';
import { formatBytes, formatCount } from '../../lib/format.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › System: what the server reports about itself right now (PRODUCT.md: no fixed figures). */
export function SystemStatusPanel({ canBackUp }: { canBackUp: boolean }) {
  const status = useSystemStatus();
  const backUp = useBackUpNow();
  const data = status.data;
  const onBackUp = () =>
    backUp.mutate(undefined, {
      onSuccess: (run) =>
        run.status === 'completed'
          ? notifySuccess('Backup Complete', `${formatBytes(run.sizeBytes)} written to ${run.path ?? 'the backups folder'}.`)
          : notifyFailure(new Error(run.error ?? 'Backup failed'), run.error ?? 'The backup failed.', 'Backup Failed'),
      onError: (err) => notifyFailure(err, 'The backup could not be made. Please try again.', 'Backup Failed'),
    });
  return (
    <Card>
      <div className="border-b border-slate-100 px-5 py-4 sm:px-6">
        <h2 className="text-base font-semibold text-slate-900">System Status</h2>
        <p className="mt-0.5 text-sm text-slate-600">Reported by the server when this page opened.</p>
      </div>
      {!data ? (
        <p role={status.isError ? 'alert' : 'status'} className="flex items-center justify-center gap-2 px-6 py-10 text-sm text-slate-600">
          {status.isError ? (
            'The system status could not be loaded.'
          ) : (
            <>
              <Spinner className="size-4 text-blue-700" /> Loading status…
            </>
          )}
        </p>
      ) : (
        <div className="grid gap-px bg-slate-100 sm:grid-cols-2">
          <Fact
            icon={Database}
            title="Database"
            badge={data.database.connected ? <Badge tone="green">Connected</Badge> : <Badge tone="red">Not connected</Badge>}
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Engine</dt>
              <dd className="text-slate-900">{data.database.version ? `PostgreSQL ${data.database.version}` : 'Unknown'}</dd>
              <dt className="text-slate-600">Mode</dt>
              <dd className="text-slate-900">{data.database.mode === 'embedded' ? 'Embedded (on this server)' : 'External server'}</dd>
              <dt className="text-slate-600">Size</dt>
              <dd className="text-slate-900" data-testid="database-size">
                {formatBytes(data.database.sizeBytes)}
              </dd>
              <dt className="text-slate-600">Latency</dt>
              <dd className="text-slate-900">{data.database.latencyMs == null ? '—' : `${data.database.latencyMs} ms`}</dd>
            </dl>
          </Fact>
          <Fact icon={HardDrive} title="File storage">
            <p className="text-sm font-semibold text-slate-900">{formatBytes(data.fileStorage.bytes)} stored</p>
            {data.fileStorage.note ? <p className="mt-1 text-sm text-slate-600">{data.fileStorage.note}</p> : null}
          </Fact>
          <Fact icon={Archive} title="Last backup">
            {data.lastBackup ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="last-backup">
                <dt className="text-slate-600">When</dt>
                <dd className="font-semibold text-slate-900">{dateTime.format(Date.parse(data.lastBackup.at))}</dd>
                <dt className="text-slate-600">Size</dt>
                <dd className="text-slate-900">{formatBytes(data.lastBackup.sizeBytes)}</dd>
                {/* Where it is: only roles that may see backups are told (the server sends null to the others). */}
                {data.lastBackup.path && data.lastBackup.host ? (
                  <>
                    <dt className="text-slate-600">Where</dt>
                    <dd className="break-all text-slate-900">
                      {data.lastBackup.path} <span className="text-slate-600">on {data.lastBackup.host}</span>
                    </dd>
                  </>
                ) : null}
              </dl>
            ) : (
              <>
                <p className="text-sm font-semibold text-slate-900">No backup has been made</p>
                <p className="mt-1 text-sm text-slate-600">{data.backupNote}</p>
              </>
            )}
            {canBackUp ? (
              <div className="mt-3 flex items-center gap-3">
                <Button type="button" variant="secondary" onClick={onBackUp} disabled={backUp.isPending} aria-describedby="backup-progress">
                  {backUp.isPending ? <Spinner className="size-4" /> : <Archive aria-hidden="true" className="size-4" />}
                  Back up now
                </Button>
                <span id="backup-progress" role="status" className="text-sm text-slate-600">
                  {backUp.isPending ? 'Backing up…' : ''}
                </span>
              </div>
            ) : null}
          </Fact>
          <Fact icon={History} title="Last retention run">
            {data.lastRetentionRun ? (
              <>
                <p className="text-sm font-semibold text-slate-900">{dateTime.format(Date.parse(data.lastRetentionRun.at))}</p>
                <p className="mt-1 text-sm text-slate-600">{removedText(data.lastRetentionRun.removed)}</p>
              </>
            ) : (
              <>
                <p className="text-sm font-semibold text-slate-900">Not run yet</p>
                <p className="mt-1 text-sm text-slate-600">
                  The retention job removes records older than the retention period and records what it removed in the audit log.
                </p>
              </>
            )}
          </Fact>
        </div>
      )}
    </Card>
  );
}

function removedText(removed: Record<string, number>): string {
  const parts = Object.entries(removed).filter(([, n]) => n > 0);
  if (parts.length === 0) return 'Nothing was old enough to remove.';
  const total = parts.reduce((s, [, n]) => s + n, 0);
  return `Removed ${formatCount(total)} records (${parts.map(([t, n]) => `${t.replaceAll('_', ' ')}: ${formatCount(n)}`).join(', ')}).`;
}

function Fact({ icon: Icon, title, badge, children }: { icon: typeof Database; title: string; badge?: ReactNode; children: ReactNode }) {
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
