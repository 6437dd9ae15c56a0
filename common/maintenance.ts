import { z } from 'zod';
import { isoDateTime } from './validation.ts';

/** POST /api/maintenance-notices (super_admin). */
export const maintenanceNoticeInputSchema = z
  .object({
    message: z.string({ error: 'message is required' }).trim().min(1, 'message is required').max(500, 'message must be at most 500 characters'),
    startsAt: isoDateTime('startsAt'),
    endsAt: isoDateTime('endsAt'),
  })
  .strict()
  .refine(
    // Compared only when both are dates (a bad one already has its own message).
    (n) => !(Number.isFinite(Date.parse(n.startsAt)) && Number.isFinite(Date.parse(n.endsAt))) || Date.parse(n.endsAt) > Date.parse(n.startsAt),
    { path: ['endsAt'], message: 'endsAt must be after startsAt' },
  );
export type MaintenanceNoticeInput = z.infer<typeof maintenanceNoticeInputSchema>;

export const maintenanceNoticeSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  /** How many staff it was e-mailed to when posted (0 when e-mail is off or not configured). */
  emailedTo: z.number().int().optional(),
});
export type MaintenanceNotice = z.infer<typeof maintenanceNoticeSchema>;
export const maintenanceNoticesSchema = z.array(maintenanceNoticeSchema);

export const MAINTENANCE_WINDOW_OVER = 'endsAt is already past: a notice must end in the future';
