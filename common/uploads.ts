// The imports' API contracts: an upload's result and its row problems, the upload log, and the Templates tab's columns (GET /api/import-columns).
import { z } from 'zod';
import { UPLOAD_TYPES } from './constants.ts';

export const rowProblemSchema = z.object({ row: z.number().int(), column: z.string(), value: z.string().optional(), message: z.string() });
export type RowProblemOut = z.infer<typeof rowProblemSchema>;

export const uploadResultSchema = z.object({
  type: z.enum(UPLOAD_TYPES),
  fileName: z.string(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  dryRun: z.boolean(),
  errors: z.array(rowProblemSchema),
  uploadId: z.number().int(),
  /** How the file was read, for the person: which date formats, with an example each ('Dates read as month/day/year (US), …'). */
  notes: z.array(z.string()),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const fileUploadSchema = z.object({
  id: z.number().int(),
  type: z.enum(UPLOAD_TYPES),
  fileName: z.string(),
  fileSize: z.number().int(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  errorCount: z.number().int(),
  status: z.string(),
  dryRun: z.boolean(),
  uploadedBy: z.number().int().nullable(),
  uploadedByName: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type FileUpload = z.infer<typeof fileUploadSchema>;

// ---- What GET /api/import-columns answers (the Templates tab reads it). ----

const importColumnSchema = z.object({
  name: z.string(),
  required: z.boolean(),
  sis: z.boolean(),
  aliases: z.array(z.string()),
  rule: z.string(),
  description: z.string(),
  example: z.string(),
});
const importTypeSchema = z.object({
  type: z.enum(UPLOAD_TYPES),
  step: z.number().int(),
  label: z.string(),
  prerequisites: z.array(z.number().int()),
  key: z.string(),
  templateFile: z.string(),
  notes: z.array(z.string()),
  columns: z.array(importColumnSchema),
});
export const importColumnsResponseSchema = z.object({ types: z.array(importTypeSchema), fileRules: z.array(z.string()) });
export type ImportColumnsResponse = z.infer<typeof importColumnsResponseSchema>;
