import { TemplateType } from '../domain/enums.js';
import { ModelRejectedInputError, type Model } from './model.js';

/**
 * Which model each workspace template runs. A template whose model is not built yet fails its
 * tasks with that reason (RecognitionFailed): never a made-up result.
 */
const models: Partial<Record<TemplateType, Model>> = {};

export function registerModel(templateType: TemplateType, model: Model): void {
  models[templateType] = model;
}

export function modelFor(templateType: TemplateType): Model {
  const model = models[templateType];
  if (!model) {
    return async () => {
      throw new ModelRejectedInputError(`No detection model is available for template type ${templateType} yet`);
    };
  }
  return model;
}
