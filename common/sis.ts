// The SIS tab's contract: the sync state of each table.
import { z } from 'zod';

export const SIS_TABLES = ['programs', 'courses', 'instructors', 'students', 'schedules', 'attendance'] as const;
export const sisStatusSchema = z.object({
  tables: z.array(
    z.object({
      table: z.enum(SIS_TABLES),
      pending: z.number().int(),
      synced: z.number().int(),
      failed: z.number().int(),
      manual: z.number().int(),
      total: z.number().int(),
      lastSyncDate: z.string().nullable(),
    }),
  ),
  totals: z.object({ pending: z.number().int(), synced: z.number().int(), failed: z.number().int(), manual: z.number().int(), total: z.number().int() }),
});
export type SisStatus = z.infer<typeof sisStatusSchema>;
