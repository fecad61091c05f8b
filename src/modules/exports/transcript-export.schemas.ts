import { z } from 'zod';
import { isoDateTime } from '../../domain/date-time.js';
import { simplifiedTranscriptItem, transcriptAnnotation, transcriptItem, transcriptSpeaker } from '../../domain/transcript-entities.js';

/**
 * The transcript export models of the spec ("Transcript export response", full and simplified).
 * Times are seconds from the start of the recording. Values the service does not have are null.
 */

const int = () => z.number().int();

const transcriptTaskFields = {
  taskId: int(),
  workspaceId: int(),
  batchId: int().nullable(),
  taskNumber: int(),
  originalFileUrl: z.string().nullable().describe('Signed, time-limited link to the source file; null before it was downloaded'),
  externalId: z.string().nullable(),
  displayName: z.string(),
  description: z.string().nullable(),
  totalTimeInSeconds: z.number().describe('Length of the recording'),
  lastCheckoutByUserName: z.string().nullable(),
  lastCheckedOutBy: int().nullable(),
  lastCheckedOutUntil: isoDateTime.nullable(),
  lastIntegratedBy: int().nullable(),
  lastIntegratedByUserName: z.string().nullable(),
  lastIntegratedOn: isoDateTime.nullable(),
  metadata: z.record(z.string(), z.string()),
  failureReason: z
    .string()
    .nullable()
    .describe('Why the task reached a failure status, in words a user can act on; null otherwise (an addition to the spec, as in GET sdtask/status)'),
};
export type TranscriptTaskFields = z.infer<z.ZodObject<typeof transcriptTaskFields>>;

export const transcriptExportResponse = z
  .object({
    ...transcriptTaskFields,
    transcript: z.object({
      transcripts: z.array(transcriptItem),
      speakers: z.array(transcriptSpeaker),
      annotations: z.array(transcriptAnnotation),
    }),
  })
  .meta({ id: 'TranscriptExportResponse', description: 'A split task is exported as one recording: its parts in order, times from the start of the original' });
export type TranscriptExportResponse = z.infer<typeof transcriptExportResponse>;

export const simplifiedTranscriptExportResponse = z
  .object({
    ...transcriptTaskFields,
    transcript: z.object({
      transcripts: z.array(simplifiedTranscriptItem),
      speakers: z.array(transcriptSpeaker),
    }),
  })
  .meta({ id: 'SimplifiedTranscriptExportResponse' });
export type SimplifiedTranscriptExportResponse = z.infer<typeof simplifiedTranscriptExportResponse>;
