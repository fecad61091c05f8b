import { z } from 'zod';
import { SpeakerSource } from '../../domain/enums.js';
import { intEnum, rowId } from '../../http/schemas.js';

const MAX_SPEAKER_ID = 128;

export const taskSpeakerParams = z.object({ taskId: rowId, workspaceId: rowId });
export const taskSpeakerItemParams = taskSpeakerParams.extend({ speakerId: z.string().min(1).max(MAX_SPEAKER_ID) });
export const workspaceSpeakerParams = z.object({ workspaceId: rowId });

// A missing or empty speakerId is let through here: the service answers it with the spec's own
// 400 (title SpeakerIdRequired), which a schema failure (title ValidationError) would not be.
const speakerFields = {
  speakerId: z.string().max(MAX_SPEAKER_ID).nullish().describe('Unique id of the speaker; required (missing or empty: 400 SpeakerIdRequired)'),
  speakerName: z.string().trim().min(1).max(256),
  speakerPrefix: z.string().max(64).nullish(),
  speakerSuffix: z.string().max(64).nullish(),
};

const taskSpeakerInput = z
  .object({ ...speakerFields, isDefault: z.boolean().default(false).describe('Setting it clears the default flag of every other speaker of the task') })
  .meta({ id: 'ExternalTaskSpeakerRequest' });
export type TaskSpeakerInput = z.infer<typeof taskSpeakerInput>;

/** The documented single object, or the spec sample's wrapper around exactly one such object. */
export const taskSpeakerBody = z
  .union([taskSpeakerInput, z.object({ speakers: z.array(taskSpeakerInput).length(1) })])
  .transform((body): TaskSpeakerInput => ('speakers' in body ? body.speakers[0]! : body));

const workspaceSpeakerInput = z.object(speakerFields).meta({ id: 'ExternalWorkspaceSpeakerRequest' });
export type WorkspaceSpeakerInput = z.infer<typeof workspaceSpeakerInput>;

export const workspaceSpeakersBody = z
  .object({ speakers: z.array(workspaceSpeakerInput).max(500).describe('The complete list: speakers not in it are removed') })
  .meta({ id: 'ExternalWorkspaceSpeakersRequest' });

const speakerView = {
  speakerId: z.string(),
  speakerName: z.string(),
  speakerPrefix: z.string().nullable(),
  speakerSuffix: z.string().nullable(),
};

export const taskSpeakerModel = z.object({ ...speakerView, isDefault: z.boolean() }).meta({ id: 'ExternalTaskSpeakerModel' });
export type TaskSpeakerModel = z.infer<typeof taskSpeakerModel>;

const taskSpeakerView = taskSpeakerModel
  .extend({ source: intEnum('SpeakerSource', SpeakerSource) })
  .meta({ id: 'ExternalTaskSpeakerViewModel', description: 'Only one speaker of a task is the default' });

export const taskSpeakersResponse = z.object({ speakers: z.array(taskSpeakerView) }).meta({ id: 'ExternalTaskSpeakers' });
export type TaskSpeakersResponse = z.infer<typeof taskSpeakersResponse>;

const workspaceSpeakerView = z.object(speakerView).meta({ id: 'ExternalWorkspaceSpeakerViewModel' });

export const workspaceSpeakersResponse = z.object({ speakers: z.array(workspaceSpeakerView) }).meta({ id: 'ExternalWorkspaceSpeakers' });
export type WorkspaceSpeakersResponse = z.infer<typeof workspaceSpeakersResponse>;
