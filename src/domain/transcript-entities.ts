import { z } from 'zod';
import { isoDateTime } from './date-time.js';

/**
 * The transcript entities the transcription model produces, the reviewer edits and the transcript
 * export writes (the spec's "Transcript export response" items). Times are seconds from the start of
 * the recording.
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
