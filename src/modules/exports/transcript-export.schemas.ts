import { z } from 'zod';
import { isoDateTime } from '../../http/schemas.js';

/**
 * The transcript export models of the spec ("Transcript export response", full and simplified).
 * Times are seconds from the start of the recording. Values the service does not have are null.
 */

const int = () => z.number().int();

export const transcriptWord = z
  .object({
    text: z.string(),
    offsetInSeconds: z.number(),
    durationInSeconds: z.number(),
    confidence: z.number().describe('0..1'),
  })
  .meta({ id: 'TranscriptWord' });

const simplifiedItemFields = {
  speakerId: z.string(),
  start: z.number(),
  end: z.number(),
  duration: z.number(),
  confidence: z.number().describe('Mean of the words, 0..1'),
  displayText: z.string(),
};

export const simplifiedTranscriptItem = z.object(simplifiedItemFields).meta({ id: 'SimplifiedTranscriptItem' });

/** Also the stored form of Transcript.items (what the Transcripts model produces). */
export const transcriptItem = z
  .object({
    ...simplifiedItemFields,
    displayWords: z.array(transcriptWord).describe('As reviewed'),
    originalWords: z.array(transcriptWord).describe('As recognized'),
  })
  .meta({ id: 'TranscriptItem' });
export type TranscriptItem = z.infer<typeof transcriptItem>;

export const transcriptSpeaker = z
  .object({
    speakerId: z.string(),
    speakerName: z.string(),
    speakerPrefix: z.string().nullable(),
    speakerSuffix: z.string().nullable(),
  })
  .meta({ id: 'TranscriptExportSpeaker' });
export type TranscriptSpeaker = z.infer<typeof transcriptSpeaker>;

// Who and when default to null: also the stored form of Transcript.annotations, which may lack them.
const orNull = <T extends z.ZodType>(type: T) => type.nullable().default(null);

export const transcriptAnnotation = z
  .object({
    uniqueId: z.string(),
    content: z.string(),
    start: z.number(),
    end: z.number(),
    createdByUserName: orNull(z.string()),
    createdBy: orNull(int()),
    createdOn: orNull(isoDateTime),
    modifiedByUserName: orNull(z.string()),
    modifiedBy: orNull(int()),
    modifiedOn: orNull(isoDateTime),
  })
  .meta({ id: 'TranscriptAnnotation' });
export type TranscriptAnnotation = z.infer<typeof transcriptAnnotation>;

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
