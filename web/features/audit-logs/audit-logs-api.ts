import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { auditEntrySchema, auditSummarySchema, type AuditEntry } from '../../../common/audit-logs.ts';
import { apiParse } from '../../lib/api.ts';
import { apiParsePage } from '../../lib/api-page.ts';
import { downloadFile } from '../../lib/download.ts';

const AUDIT_LOGS_KEY = '/api/audit-logs';

/** The filters SPEC §2 offers, sent to the server as they are ('all' = no filter). */
export type AuditFilters = { search: string; action: string; table: string; startDate: string; endDate: string };
export const NO_FILTERS: AuditFilters = { search: '', action: 'all', table: 'all', startDate: '', endDate: '' };

function filterQuery(filters: AuditFilters, paging?: { page: number; pageSize: number }): string {
  const q = new URLSearchParams();
  if (filters.search.trim()) q.set('search', filters.search.trim());
  if (filters.action !== 'all') q.set('action', filters.action);
  if (filters.table !== 'all') q.set('table', filters.table);
  if (filters.startDate) q.set('startDate', filters.startDate);
  if (filters.endDate) q.set('endDate', filters.endDate);
  if (paging) {
    q.set('page', String(paging.page));
    q.set('pageSize', String(paging.pageSize));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

type AuditPage = { items: AuditEntry[]; total: number };

/** One page of entries, newest first; X-Total-Count is the filtered total. */
export function useAuditLogs(filters: AuditFilters, page: number, pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: [AUDIT_LOGS_KEY, filters, page, pageSize],
    queryFn: (): Promise<AuditPage> => apiParsePage(z.array(auditEntrySchema), `${AUDIT_LOGS_KEY}${filterQuery(filters, { page, pageSize })}`),
    placeholderData: keepPreviousData,
    // The log grows all the time: opening the screen again shows the latest entries.
    staleTime: 0,
    enabled,
  });
}

/** The summary cards: 24-hour figures for the school, data modifications for the filters. */
export function useAuditSummary(filters: AuditFilters, enabled: boolean) {
  return useQuery({
    queryKey: [`${AUDIT_LOGS_KEY}/summary`, filters],
    queryFn: () => apiParse(auditSummarySchema, 'GET', `${AUDIT_LOGS_KEY}/summary${filterQuery(filters)}`),
    placeholderData: keepPreviousData,
    // The log grows all the time: opening the screen again shows the latest entries.
    staleTime: 0,
    enabled,
  });
}

/** GET /api/audit-logs/export with the filters; saves the CSV under the server's file name. */
export function downloadAuditCsv(filters: AuditFilters): Promise<string> {
  return downloadFile(`${AUDIT_LOGS_KEY}/export${filterQuery(filters)}`, { fallbackName: `audit-logs-${new Date().toISOString().slice(0, 10)}.csv` });
}
