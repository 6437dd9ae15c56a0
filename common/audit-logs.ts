import { z } from 'zod';
import { queryDate, queryInt } from './validation.ts';

export const AUDIT_ACTIONS = ['Create', 'Update', 'Delete', 'Upload', 'Login', 'Logout', 'Export', 'Purge'] as const;

export const auditQuerySchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    action: z.string().max(40).optional(),
    table: z.string().max(60).optional(),
    startDate: queryDate('startDate'),
    endDate: queryDate('endDate'),
    page: queryInt('page', 1, 1_000_000).optional(),
    pageSize: queryInt('pageSize', 1, 500).optional(),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, { path: ['endDate'], message: 'endDate must not be before startDate' });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  action: z.string(),
  tableName: z.string(),
  recordId: z.string().nullable(),
  /** What the record is called ('Ana Lopez', 'NUR-101 — Fundamentals'), when the page can say cheaply; null otherwise. */
  recordName: z.string().nullable(),
  ipAddress: z.string().nullable(),
  oldValues: z.unknown().nullable(),
  newValues: z.unknown().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditSummarySchema = z.object({
  recentActivity24h: z.number().int(),
  failedLoginAttempts24h: z.number().int(),
  dataModifications: z.number().int(),
  total: z.number().int(),
});
