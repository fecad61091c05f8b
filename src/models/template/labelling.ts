import { ModelRejectedInputError, type Model } from '../model.js';

/** Labelling: the pages are prepared for people to label; nothing is detected. */
export const labellingModel: Model = async (input) => {
  if (input.kind !== 'pdf' && input.kind !== 'image' && input.kind !== 'tiff') {
    throw new ModelRejectedInputError(`labelling workspaces take PDFs and images, not ${input.kind} files`);
  }
  return { kind: 'document', chunks: input.pages.map((pageNumber) => ({ pageNumber, entities: [], averageConfidence: null })) };
};
