import type { Config } from '../../config.js';
import { TemplateType } from '../../domain/enums.js';
import { ModelRejectedInputError, type Model } from '../model.js';
import { documentModels } from './document-models.js';
import { createTranscriptionModel } from '../transcription/transcription.js';

/** The model each workspace template runs. */
export type ModelRegistry = (templateType: TemplateType) => Model;

/**
 * Built once per worker process from its configuration (the transcription model needs the ASR
 * settings). A template without a model fails its tasks with that reason (RecognitionFailed):
 * never a made-up result.
 */
export function createModelRegistry(config: Pick<Config, 'ASR_URL' | 'ASR_API_KEY'>): ModelRegistry {
  const models: Partial<Record<TemplateType, Model>> = {
    ...documentModels,
    [TemplateType.Transcripts]: createTranscriptionModel(config),
  };
  return (templateType) =>
    models[templateType] ??
    (async () => {
      throw new ModelRejectedInputError(`No detection model is available for template type ${templateType}`);
    });
}
