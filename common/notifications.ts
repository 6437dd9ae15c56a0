import { z } from 'zod';

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const;

/** Settings › System: whether each channel can act, and what the outbox holds. */
export const deliveryStatusSchema = z.object({
  email: z.object({ configured: z.boolean(), from: z.string().nullable() }),
  sms: z.object({ configured: z.boolean() }),
  outbox: z.object({
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
  }),
});
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** One background job as Settings › System lists it, with its recent runs (newest first). */
const jobRunSchema = z.object({
  state: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  retryCount: z.number().int(),
  error: z.string().nullable(),
});
export const backgroundJobSchema = z.object({
  name: z.string(),
  schedule: z.string().nullable(),
  runs: z.array(jobRunSchema),
});
export type BackgroundJob = z.infer<typeof backgroundJobSchema>;

export const TEST_EMAIL_QUEUED = 'Test e-mail queued; it is sent within seconds.';
export const EMAIL_NOT_CONFIGURED = 'E-mail is not configured on this server (SMTP_URL is not set).';
