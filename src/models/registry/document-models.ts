import { TemplateType } from '../../domain/enums.js';
import { anonymizationModel } from '../anonymization/anonymization.js';
import { idDocumentModel } from '../id-document/id-document.js';
import { invoicesPortugalModel, invoicesUniversalModel, receiptsModel } from '../invoice/invoice.js';
import { labellingModel } from '../template/labelling.js';
import { layoutModel } from '../page/layout.js';
import type { Model } from '../model.js';
import { templateModel } from '../template/template.js';

/** The model of every document workspace type (DESIGN.md section 6); Transcripts has its own. */
export const documentModels: Partial<Record<TemplateType, Model>> = {
  [TemplateType.InvoicesUniversal]: invoicesUniversalModel,
  [TemplateType.InvoicesPortugal]: invoicesPortugalModel,
  [TemplateType.Receipts]: receiptsModel,
  [TemplateType.DocumentAnonymization]: anonymizationModel,
  [TemplateType.ImageAnonymization]: anonymizationModel,
  [TemplateType.IdentificationDocument]: idDocumentModel,
  [TemplateType.Layout]: layoutModel,
  [TemplateType.Custom]: layoutModel,
  [TemplateType.Template]: templateModel,
  [TemplateType.Labelling]: labellingModel,
};
