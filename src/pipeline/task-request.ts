import { z } from 'zod';

/**
 * What a part of a split task is a part of, recorded in its request when the split makes it: the
 * part's first processing request is its own slice of the original, so reprocessing the part
 * runs again on its own file, never on the original's URL.
 */
export const storedPartSlice = z.object({
  /** The part's own file in the blob store (`.../run-N/part-K.pdf` under the original). */
  sourceBlobKey: z.string(),
  /** Document splits: the original's pages in this part, as a page range ("5-8"). */
  pages: z.string().optional(),
  /** Recording splits: where the part starts and ends in the original, in seconds. */
  startSeconds: z.number().optional(),
  endSeconds: z.number().optional(),
});
export type StoredPartSlice = z.infer<typeof storedPartSlice>;

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
  /** Set on the parts of a split task only (absent on parts made before it existed). */
  part: storedPartSlice.optional(),
});
export type StoredTaskRequest = z.infer<typeof storedTaskRequest>;
