import { z } from 'zod';

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

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
