import { z } from 'zod';

/**
 * The original create request as stored on the task (what reprocessing replays). Parsed leniently:
 * rows written by older versions may lack newer optional fields.
 */
export const storedTaskRequest = z.object({
  context: z.object({
    url: z.string(),
    transcriptLanguage: z.string().optional(),
    splitTaskInChunks: z.boolean().optional(),
    splitChunkDurationMinutes: z.number().int().positive().optional(),
    splitChunkNumberPages: z.number().int().positive().optional(),
    pageRange: z.string().optional(),
  }),
  useHigherQuality: z.boolean().optional().default(false),
});
export type StoredTaskRequest = z.infer<typeof storedTaskRequest>;
