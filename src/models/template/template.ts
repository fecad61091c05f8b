import { z } from 'zod';
import type { Entity, TemplateCell, TemplateHeader } from '../../domain/entities.js';
import { detectPerPage } from '../page/chunks.js';
import { childKeyValueOf, newEntity, type Located, type PageRef } from '../page/text/entities.js';
import { centerOf, containsPoint, geometryOf, type Box } from '../page/text/geometry.js';
import { ModelRejectedInputError, type Model } from '../model.js';
import { dateOptionsFor, findDate, normalizeValue, parseAmount, pascalCase, type DateOptions } from '../fields/normalize.js';
import { ocrLanguages } from '../page/page-reader.js';
import { buildPageText, runOfWords, type PlacedWord } from '../page/text/text-lines.js';

const region = z.object({
  left: z.number().min(0),
  top: z.number().min(0),
  width: z.number().positive(),
  height: z.number().positive(),
});

const templateColumn = z.object({
  uniqueId: z.string().min(1),
  name: z.string(),
  /** Page units, like the field's region. */
  left: z.number(),
  width: z.number().positive(),
  fieldType: z.number().int().default(0),
  isRequired: z.boolean().default(false),
});

/** A Template workspace's field: a region of a page (page units: points for PDFs, pixels for images). */
const templateField = z.object({
  fieldUniqueId: z.string().min(1),
  type: z.string().min(1),
  pageNumber: z.number().int().positive(),
  boundingBox: region,
  /** Table fields: the columns, each a horizontal band of the region. */
  columns: z.array(templateColumn).min(1).optional(),
});
type TemplateField = z.infer<typeof templateField>;

const templateFields = z.array(templateField).nullish();

/**
 * Template: the text inside each region the workspace defines, per page; table fields are cut
 * into their columns, one row per line of text.
 */
export const templateModel: Model = async (input) => {
  const parsed = templateFields.safeParse(input.templateFields);
  if (!parsed.success) throw new ModelRejectedInputError(`the workspace's template fields are invalid: ${z.prettifyError(parsed.error)}`);
  const fields = parsed.data ?? [];
  const dates = dateOptionsFor(input.language);
  const chunks = await detectPerPage(input, { languages: ocrLanguages(input) }, async (page, ref) => {
    const text = buildPageText(await page.allWords());
    const words = text.lines.flatMap((line) => line.words.map((word) => ({ word, row: line.row })));
    return fields
      .filter((field) => field.pageNumber === page.pageNumber)
      .map((field) => {
        const inside = words.filter(({ word }) => containsPoint(field.boundingBox, centerOf(word.box)));
        return fieldEntity(ref, field, inside, dates);
      });
  });
  return { kind: 'document', chunks };
};

type WordInRow = { word: PlacedWord; row: number };

function fieldEntity(page: PageRef, field: TemplateField, inside: readonly WordInRow[], dates: DateOptions): Entity {
  const where = locate(field.boundingBox, inside.map((w) => w.word));
  const content = inside.length ? runOfWords(inside.map((w) => w.word)).text : '';
  const keyValues = field.columns
    ? []
    : [
        childKeyValueOf(
          page,
          where,
          { category: field.fieldUniqueId, categoryNormalized: field.type, content, contentNormalized: normalized(field.type, content, dates) },
          `${field.fieldUniqueId}-value`,
        ),
      ];
  return newEntity(page, {
    type: 'TemplateField',
    category: field.fieldUniqueId,
    groupName: 'Template',
    confidence: where.confidence,
    notDetected: inside.length === 0,
    templateBuilderField: {
      ...geometryOf(field.boundingBox, where.confidence, where.spans),
      fieldUniqueId: field.fieldUniqueId,
      type: field.type,
      keyValues,
      table: field.columns ? tableOf(page, field, field.columns, inside, dates) : null,
    },
  });
}

/** The region with what its words say about it: their confidence and where they are in the page text. */
function locate(box: Box, words: readonly PlacedWord[]): Located {
  if (words.length === 0) return { box, confidence: 0, spans: [] };
  const run = runOfWords(words);
  return { box, confidence: run.confidence, spans: run.spans };
}

function tableOf(page: PageRef, field: TemplateField, columns: NonNullable<TemplateField['columns']>, inside: readonly WordInRow[], dates: DateOptions) {
  const region = field.boundingBox;
  const tableHeaders: TemplateHeader[] = columns.map((column, columnIndex) => ({
    ...geometryOf({ left: column.left, top: region.top, width: column.width, height: region.height }, 1),
    rowIndex: 0,
    columnIndex,
    content: column.name,
    contentNormalized: column.name,
    pageNumber: page.pageNumber,
    category: column.name,
    categoryNormalized: pascalCase(column.name),
    uniqueId: column.uniqueId,
    fieldType: column.fieldType,
    isRequired: column.isRequired,
  }));
  const columnOf = (word: PlacedWord) => columns.findIndex((c) => containsPoint({ left: c.left, top: region.top, width: c.width, height: region.height }, centerOf(word.box)));
  const rows = [...new Set(inside.map((w) => w.row))]
    .sort((a, b) => a - b)
    .map((row) => columns.map((_, c) => inside.filter((w) => w.row === row && columnOf(w.word) === c).map((w) => w.word)))
    // A row that repeats the column names is the printed header inside the region.
    .filter((cells) => !cells.every((words, c) => words.map((w) => w.text).join(' ').toLowerCase() === columns[c]!.name.toLowerCase()));
  const tableRows = Object.fromEntries(
    rows.map((cells, r) => {
      const rowIndex = r + 1;
      const filled = cells.flatMap((words, columnIndex): TemplateCell[] => {
        if (words.length === 0) return [];
        const run = runOfWords(words);
        return [
          {
            ...geometryOf(run.box, run.confidence, run.spans),
            rowIndex,
            columnIndex,
            content: run.text,
            contentNormalized: normalizeValue(run.text, dates),
            pageNumber: page.pageNumber,
            uniqueId: `${field.fieldUniqueId}-r${rowIndex}-c${columnIndex}`,
            headerId: columns[columnIndex]!.uniqueId,
          },
        ];
      });
      return [String(rowIndex), filled];
    }),
  );
  return { rowCount: rows.length + 1, columnCount: columns.length, tableHeaders, tableRows };
}

/** Dates and amounts of fields typed so are normalised; other text is kept as read. */
function normalized(type: string, content: string, dates: DateOptions): string {
  const kind = type.toLowerCase();
  if (kind.includes('date')) return findDate(content, dates)?.iso ?? content;
  if (/number|amount|currency|decimal|money/.test(kind)) return parseAmount(content) ?? content;
  return content;
}
