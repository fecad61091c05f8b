import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Entity } from '../../domain/entities.js';
import { detectPerPage } from '../page/chunks.js';
import { keyValueOf, newEntity, type PageRef } from '../page/text/entities.js';
import { growBox, scaleBox } from '../page/text/geometry.js';
import type { Model } from '../model.js';
import { dateOptionsFor } from '../fields/normalize.js';
import { ocrLanguages } from '../page/page-reader.js';
import { findPersonalData, type PersonalData } from './personal-data.js';
import { ImagePdf, paintBoxes } from './redaction.js';
import { boxesInRange, buildPageText } from '../page/text/text-lines.js';

/** Resolution of the redacted pages; useHigherQuality doubles it. */
const STANDARD_DPI = 150;
const HIGHER_QUALITY_DPI = 300;
/** Image sources carry no physical size a PDF page needs; scans are mostly 300 dpi. */
const ASSUMED_SCAN_DPI = 300;
/** Boxes grow by this share of their height: OCR boxes hug the ink, and ink spreads past a box estimated from the text layer. */
const REDACTION_MARGIN = 0.15;

/**
 * Document and Image Anonymization: personal data found on every page (see findPersonalData) and
 * a redacted copy in which it is painted over in the pixels: a PDF of page images (no text
 * layer) for PDFs and multi-page images, a PNG for a single image.
 */
export const anonymizationModel: Model = async (input) => {
  const dates = dateOptionsFor(input.language);
  const dpi = input.useHigherQuality ? HIGHER_QUALITY_DPI : STANDARD_DPI;
  // One image in, one PNG out; everything else becomes a PDF of page images.
  const asPng = input.kind !== 'pdf' && input.pages.length === 1;
  const pdf = new ImagePdf();
  let png: Buffer | undefined;
  // PDF pages are measured in points already; image pixels are taken as scanned at ASSUMED_SCAN_DPI.
  const pointsPerUnit = input.kind === 'pdf' ? 1 : 72 / ASSUMED_SCAN_DPI;

  const chunks = await detectPerPage(input, { languages: ocrLanguages(input) }, async (page, ref) => {
    // The text layer, and apart from it the text inside images on the page: the redacted copy is
    // made of pixels, so personal data in a pasted scan would otherwise survive it.
    const texts = [buildPageText(page.words), buildPageText(await page.imageWords())];
    const found = texts.map((text) => ({ text, findings: findPersonalData(text, dates) }));
    const image = await page.image(dpi);
    const boxes = found
      .flatMap(({ text, findings }) => findings.flatMap(({ run }) => run.spans.flatMap((span) => boxesInRange(text, span.offset, span.offset + span.length))))
      .map((box) => scaleBox(growBox(box, box.height * REDACTION_MARGIN), 1 / image.unitsPerPixel));
    const redacted = await paintBoxes(image.png, boxes);
    if (asPng) png = redacted;
    else await pdf.addPage(redacted, page.width * pointsPerUnit, page.height * pointsPerUnit);
    return found.flatMap(({ findings }) => findings.map((finding) => personalDataEntity(ref, finding)));
  }, input.emitChunk);

  const name = asPng ? 'redacted.png' : 'redacted.pdf';
  const file = path.join(input.workDir, name);
  if (png) await writeFile(file, png);
  else await pdf.save(file);
  const redactedBlobKey = await input.saveOutput(name, file);
  return { kind: 'document', chunks, redactedBlobKey };
};

function personalDataEntity(page: PageRef, finding: PersonalData): Entity {
  return newEntity(page, {
    type: 'PersonalData',
    category: finding.category,
    groupName: 'PersonalData',
    confidence: finding.run.confidence,
    keyValues: [
      keyValueOf(page, finding.run, {
        category: finding.category,
        categoryNormalized: finding.category,
        content: finding.run.text,
        contentNormalized: finding.contentNormalized,
      }),
    ],
  });
}
