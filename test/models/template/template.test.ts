import { describe, expect, it } from 'vitest';
import { TemplateType } from '../../../src/domain/enums.js';
import { documentModels } from '../../../src/models/registry/document-models.js';
import { labellingModel } from '../../../src/models/template/labelling.js';
import { layoutModel } from '../../../src/models/page/layout.js';
import { ModelRejectedInputError } from '../../../src/models/model.js';
import { templateModel } from '../../../src/models/template/template.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { documentResult, modelInput, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const ORDER_FORM: Placed[] = [
  { text: 'Order form', x: 50, y: 60, size: 16 },
  { text: 'Order number', x: 50, y: 100 },
  { text: 'PO-7731', x: 200, y: 100 },
  { text: 'Delivery date', x: 50, y: 120 },
  { text: '03/05/2024', x: 200, y: 120 },
  { text: 'Item', x: 50, y: 200 },
  { text: 'Quantity', x: 300, y: 200 },
  { text: 'Blue pens', x: 50, y: 220 },
  { text: '40', x: 300, y: 220 },
  { text: 'Paper reams', x: 50, y: 240 },
  { text: '12', x: 300, y: 240 },
  { text: 'Signed by the buyer', x: 50, y: 400 },
];

const FIELDS = [
  { fieldUniqueId: 'orderNumber', type: 'Text', pageNumber: 1, boundingBox: { left: 190, top: 88, width: 150, height: 16 } },
  { fieldUniqueId: 'deliveryDate', type: 'Date', pageNumber: 1, boundingBox: { left: 190, top: 108, width: 150, height: 16 } },
  { fieldUniqueId: 'signature', type: 'Text', pageNumber: 1, boundingBox: { left: 300, top: 380, width: 200, height: 40 } },
  { fieldUniqueId: 'otherPage', type: 'Text', pageNumber: 2, boundingBox: { left: 0, top: 0, width: 100, height: 100 } },
  {
    fieldUniqueId: 'items',
    type: 'Table',
    pageNumber: 1,
    boundingBox: { left: 40, top: 185, width: 400, height: 65 },
    columns: [
      { uniqueId: 'col-item', name: 'Item', left: 40, width: 240, isRequired: true },
      { uniqueId: 'col-qty', name: 'Quantity', left: 280, width: 160, fieldType: 2 },
    ],
  },
];

describe('template model', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  it('extracts the text inside each region of the page, tables by column', async () => {
    const pdf = await writeFixture(file('order.pdf'), await textPdf([ORDER_FORM]));
    const result = documentResult(await templateModel(await modelInput(pdf, 'pdf', [1], { templateFields: FIELDS })));
    const byId = Object.fromEntries(result.chunks[0]!.entities.map((e) => [e.category, e]));
    expect(Object.keys(byId)).toEqual(['orderNumber', 'deliveryDate', 'signature', 'items']);

    const order = byId.orderNumber!.templateBuilderField!;
    expect(order).toMatchObject({ fieldUniqueId: 'orderNumber', type: 'Text', table: null });
    expect(order.keyValues).toMatchObject([{ content: 'PO-7731', contentNormalized: 'PO-7731', childTemporaryId: 'orderNumber-value' }]);
    expect(order.boundingBox).toMatchObject({ left: 190, top: 88, width: 150, height: 16 });
    expect(byId.deliveryDate!.templateBuilderField!.keyValues[0]).toMatchObject({ content: '03/05/2024', contentNormalized: '2024-05-03' });
    // Nothing printed in the signature box: reported, as not detected.
    expect(byId.signature).toMatchObject({ notDetected: true, confidence: 0 });
    expect(byId.signature!.templateBuilderField!.keyValues[0]!.content).toBe('');

    const table = byId.items!.templateBuilderField!.table!;
    expect([table.rowCount, table.columnCount]).toEqual([3, 2]);
    expect(table.tableHeaders.map((h) => [h.uniqueId, h.content, h.isRequired, h.fieldType])).toEqual([
      ['col-item', 'Item', true, 0],
      ['col-qty', 'Quantity', false, 2],
    ]);
    expect(Object.values(table.tableRows).map((cells) => cells.map((c) => [c.content, c.headerId, c.uniqueId]))).toEqual([
      [
        ['Blue pens', 'col-item', 'items-r1-c0'],
        ['40', 'col-qty', 'items-r1-c1'],
      ],
      [
        ['Paper reams', 'col-item', 'items-r2-c0'],
        ['12', 'col-qty', 'items-r2-c1'],
      ],
    ]);
  });

  it('refuses template fields it cannot read, and works without any', async () => {
    const pdf = await writeFixture(file('blank.pdf'), await textPdf([[{ text: 'Nothing to see', x: 50, y: 60 }]]));
    await expect(templateModel(await modelInput(pdf, 'pdf', [1], { templateFields: [{ fieldUniqueId: 'x' }] }))).rejects.toThrow(ModelRejectedInputError);
    const result = documentResult(await templateModel(await modelInput(pdf, 'pdf', [1], { templateFields: null })));
    expect(result.chunks).toEqual([{ pageNumber: 1, entities: [], averageConfidence: null }]);
  });
});

describe('labelling model', () => {
  const scratch = useScratchDir();

  it('prepares one chunk per page and detects nothing', async () => {
    const pdf = await writeFixture(scratch.file('pages.pdf'), await textPdf([[{ text: 'One', x: 50, y: 60 }], [{ text: 'Two', x: 50, y: 60 }], []]));
    const result = documentResult(await labellingModel(await modelInput(pdf, 'pdf', [1, 3])));
    expect(result.chunks).toEqual([
      { pageNumber: 1, entities: [], averageConfidence: null },
      { pageNumber: 3, entities: [], averageConfidence: null },
    ]);
    await expect(labellingModel(await modelInput(pdf, 'audio', []))).rejects.toThrow(ModelRejectedInputError);
  });
});

describe('document models', () => {
  it('has a model for every document workspace type, Custom being Layout', () => {
    const documentTypes = Object.values(TemplateType).filter((type) => type !== TemplateType.Transcripts);
    expect(Object.keys(documentModels).map(Number).sort((a, b) => a - b)).toEqual(documentTypes.sort((a, b) => a - b));
    expect(documentModels[TemplateType.Custom]).toBe(layoutModel);
  });
});
