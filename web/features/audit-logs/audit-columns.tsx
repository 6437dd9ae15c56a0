import { createColumnHelper } from '@tanstack/react-table';
import { Eye } from 'lucide-react';
import type { AuditEntry } from '../../../common/audit-logs.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { hasDetails } from './audit-diff.ts';
import { ACTION_TONES, formatTimestamp, isFailedLogin, tableLabel, timestampParts, userLabel } from './audit-format.ts';

const col = createColumnHelper<AuditEntry>();

/** SPEC §2 columns: Timestamp, User, Action, Table, Record ID, IP Address, Details. */
export function auditColumns(onDetails: (entry: AuditEntry) => void) {
  return [
    col.accessor('timestamp', {
      header: 'Timestamp',
      meta: { rowHeader: true, className: 'whitespace-nowrap' },
      cell: (c) => {
        const { date, time } = timestampParts(c.getValue());
        return (
          <time dateTime={c.getValue()} title={formatTimestamp(c.getValue())} className="block">
            <span className="block text-slate-900">{date}</span>
            <span className="block text-xs text-slate-600">{time}</span>
          </time>
        );
      },
    }),
    col.display({
      id: 'user',
      header: 'User',
      cell: ({ row }) => (
        <span className={row.original.userId == null ? 'whitespace-nowrap text-slate-600 italic' : 'whitespace-nowrap font-medium text-slate-900'}>
          {userLabel(row.original)}
        </span>
      ),
    }),
    col.accessor('action', {
      header: 'Action',
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-1.5">
          <Badge tone={ACTION_TONES[row.original.action] ?? 'slate'}>{row.original.action}</Badge>
          {isFailedLogin(row.original) ? <Badge tone="red">Failed</Badge> : null}
        </span>
      ),
    }),
    // Words for the table and the record's name where the server gave it; the stored names stay in a tooltip for whoever needs them.
    col.accessor('tableName', { header: 'Table', cell: (c) => <span title={c.getValue()}>{tableLabel(c.getValue())}</span> }),
    col.accessor('recordId', {
      header: 'Record ID',
      cell: ({ row }) => {
        const { recordId, recordName } = row.original;
        if (!recordId) return <span className="text-slate-500">—</span>;
        return recordName ? (
          <span className="block min-w-[8rem]">
            <span className="block text-slate-900">{recordName}</span>
            <span className="block text-xs text-slate-600">#{recordId}</span>
          </span>
        ) : (
          `#${recordId}`
        );
      },
    }),
    col.accessor('ipAddress', {
      header: 'IP Address',
      meta: { className: 'whitespace-nowrap' },
      cell: (c) => c.getValue() ?? <span className="text-slate-500">—</span>,
    }),
    col.display({
      id: 'details',
      header: () => <span className="sr-only sm:not-sr-only">Details</span>,
      meta: { className: 'text-right' },
      cell: ({ row }) =>
        hasDetails(row.original) ? (
          <IconButton
            icon={Eye}
            label={`View details of ${row.original.action} ${tableLabel(row.original.tableName)} entry ${row.original.id}`}
            onClick={() => onDetails(row.original)}
          />
        ) : null,
    }),
  ];
}
