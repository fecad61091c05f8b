import { findBarcodes } from './barcodes.js';
import { detectPerPage } from './chunks.js';
import { layoutEntities } from './layout-entities.js';
import type { Model } from '../model.js';
import { dateOptionsFor } from '../fields/normalize.js';
import { analyzeLayout } from './text/page-layout.js';
import { ocrLanguages } from './page-reader.js';

/**
 * Layout (and Custom): lines with their words, paragraphs, tables from aligned text, "Label:
 * value" pairs and barcodes of every page, from the text layer or OCR.
 */
export const layoutModel: Model = async (input) => {
  const dates = dateOptionsFor(input.language);
  const chunks = await detectPerPage(input, { languages: ocrLanguages(input) }, async (page, ref) =>
    layoutEntities(ref, analyzeLayout(await page.allWords()), await findBarcodes(page), { dates }),
    input.emitChunk,
  );
  return { kind: 'document', chunks };
};
