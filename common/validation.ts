import { z } from 'zod';

/** Optional text from a form or API: blank becomes null, so "" never lands in the database. */
export const optionalText = (max = 500) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredText = (label: string, max = 200) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

export const optionalEmail = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .pipe(z.email('Enter a valid e-mail address').nullable());

export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), `${label} is not a real date`);

export const optionalIsoDate = (label: string) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(isoDate(label).nullable());

export const idParam = z.object({ id: z.coerce.number().int().positive('id must be a positive integer') });

/** List queries: all optional; without page/pageSize the whole list is returned (SPEC clients expect arrays). */
export const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  sort: z.string().max(40).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const TOTAL_COUNT_HEADER = 'x-total-count';

/**
 * A number that may arrive as a numeric string (SPEC: decimal fields such as clockHours are often
 * sent as "60.5"). Blank strings count as absent.
 */
export const numberLike = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v) : v), inner);
