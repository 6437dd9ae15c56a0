import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { complianceOverviewSchema, watchRowSchema, withdrawalSchema } from '../../../common/compliance.ts';
import { apiParse } from '../../lib/api.ts';
import { HOURS_KEY, STUDENTS_KEY } from '../../lib/shared-queries.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

export type ComplianceFilter = { programId?: number; asOf?: string };
const COMPLIANCE_KEY = ['/api/compliance'] as const;

function query(f: ComplianceFilter): string {
  const q = new URLSearchParams();
  if (f.programId) q.set('programId', String(f.programId));
  if (f.asOf) q.set('asOf', f.asOf);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** GET /api/compliance/withdrawal-watch: most urgent first. */
export function useWithdrawalWatch(f: ComplianceFilter) {
  return useQuery({
    queryKey: [...COMPLIANCE_KEY, 'watch', f],
    queryFn: () => apiParse(z.array(watchRowSchema), 'GET', `/api/compliance/withdrawal-watch${query(f)}`),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/compliance/overview: the SAP, excused-cap and make-up lists and every tab's count. */
export function useComplianceOverview(f: ComplianceFilter) {
  return useQuery({
    queryKey: [...COMPLIANCE_KEY, 'overview', f],
    queryFn: () => apiParse(complianceOverviewSchema, 'GET', `/api/compliance/overview${query(f)}`),
    placeholderData: keepPreviousData,
  });
}

type WithdrawalInput = { studentId: number; withdrawalDate?: string; determinationDate?: string; reason: string };

/** POST /api/students/:id/withdrawal: the answer carries the refund inputs. */
export const useRecordWithdrawal = () =>
  useRefreshingMutation(
    ({ studentId, ...body }: WithdrawalInput) => apiParse(withdrawalSchema, 'POST', `/api/students/${studentId}/withdrawal`, body),
    [COMPLIANCE_KEY, STUDENTS_KEY, HOURS_KEY],
  );
