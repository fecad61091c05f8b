import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entity as entitySchema, type Entity } from '../../src/domain/entities.js';
import { compactEntities, expandEntities } from '../../src/domain/stored-entities.js';
import { invoicesUniversalModel } from '../../src/models/invoice/invoice.js';
import { layoutModel } from '../../src/models/page/layout.js';
import { cornerPoints, toBoundingBox } from '../../src/models/page/text/geometry.js';
import { documentResult, modelInput, textPdf } from '../models/document-fixtures.js';

/** Through JSON, as Postgres stores and returns it. */
const stored = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const roundTrip = (entities: Entity[]) => expandEntities(stored(compactEntities(entities)));

// Coordinates as the engines give them (any double) and as the models round them.
const coordinate = fc.oneof(fc.double({ min: -1e4, max: 1e5, noNaN: true }), fc.integer({ min: 0, max: 1e6 }).map((n) => n / 100));
const rawBox = fc.record({ left: coordinate, top: coordinate, width: coordinate, height: coordinate });
const boundingBox = fc.oneof(
  rawBox.map(toBoundingBox),
  // Any eight numbers: a box a reviewer placed or an older writer stored.
  fc.record({ height: coordinate, width: coordinate, left: coordinate, bottom: coordinate, x: coordinate, y: coordinate, right: coordinate, top: coordinate }),
);
const point = fc.record({ x: coordinate, y: coordinate });
const geometry = boundingBox.chain((box) =>
  fc.record({
    boundingBox: fc.constant(box),
    points: fc.oneof(fc.constant(cornerPoints(box)), fc.array(point, { maxLength: 5 })),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    spans: fc.array(fc.record({ offset: fc.nat(), length: fc.nat() }), { maxLength: 3 }),
  }),
);
const text = fc.string({ maxLength: 12 });
const nullableText = fc.option(text, { nil: null });

function keyValue(pageNumber: number) {
  return fc
    .record({
      geometry,
      pageNumber: fc.oneof(fc.constant(pageNumber), fc.nat(9)),
      category: text,
      sameCategory: fc.boolean(),
      categoryNormalized: nullableText,
      content: text,
      contentNormalized: nullableText,
      childTemporaryId: fc.option(text, { nil: undefined }),
    })
    .map(({ geometry: g, sameCategory, childTemporaryId, ...kv }) => ({
      ...g,
      ...kv,
      categoryNormalized: sameCategory ? kv.category : kv.categoryNormalized,
      ...(childTemporaryId === undefined ? {} : { childTemporaryId }),
    }));
}

function cell(pageNumber: number) {
  return fc
    .record({ geometry, rowIndex: fc.nat(5), columnIndex: fc.nat(5), content: text, contentNormalized: nullableText, pageNumber: fc.constant(pageNumber) })
    .map(({ geometry: g, ...c }) => ({ ...g, ...c }));
}

function table(pageNumber: number) {
  return fc
    .record({
      geometry,
      rowCount: fc.nat(5),
      columnCount: fc.nat(5),
      tableHeaders: fc.array(cell(pageNumber).map((c) => ({ ...c, category: c.content, categoryNormalized: c.contentNormalized })), { maxLength: 3 }),
      tableRows: fc.dictionary(fc.nat(9).map(String), fc.array(cell(pageNumber), { maxLength: 3 }), { maxKeys: 3 }),
      boundsAndPoints: fc.array(geometry.map((g) => ({ pageNumber, boundingBox: g.boundingBox, points: g.points })), { maxLength: 2 }),
      tableRowsTableContent: fc.dictionary(fc.nat(9).map(String), text, { maxKeys: 3 }),
      hasAlternativeHeaders: fc.boolean(),
    })
    .map(({ geometry: g, ...t }) => ({ ...g, ...t }));
}

function qrCode(pageNumber: number) {
  return fc
    .record({
      geometry,
      keyValues: fc.array(keyValue(pageNumber).map((kv) => ({ ...kv, childTemporaryId: 'p1-code0-0' })), { maxLength: 3 }),
      qrCodeContent: text,
      invalidKeysCount: fc.nat(3),
      duplicatedKeys: fc.array(text, { maxLength: 2 }),
    })
    .map(({ geometry: g, ...q }) => ({ ...g, ...q }));
}

const when = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const timestamp = when(fc.constant('2026-01-02T03:04:05.000Z'));

const entity: fc.Arbitrary<Entity> = fc.nat({ max: 9 }).chain((pageNumber) =>
  fc.record({
    type: text,
    category: text,
    groupName: text,
    pageNumber: fc.constant(pageNumber),
    chunkNumber: fc.nat(9),
    customFormValues: nullableText,
    qrCode: when(qrCode(pageNumber)),
    table: when(table(pageNumber)),
    templateBuilderField: fc.constant(null),
    keyValues: fc.array(keyValue(pageNumber), { maxLength: 4 }),
    addedOn: timestamp,
    editedOn: timestamp,
    viewerEditedOn: timestamp,
    integratedOn: timestamp,
    addedBy: when(fc.nat()),
    editedBy: when(fc.nat()),
    integratedBy: when(fc.nat()),
    addedByExternal: nullableText,
    editedByExternal: nullableText,
    integratedByExternal: nullableText,
    integrationFailedReason: nullableText,
    integrationFailedReasonDetailed: nullableText,
    markedAsSolved: fc.boolean(),
    notDetected: fc.boolean(),
    contentUnderstandingDetected: fc.boolean(),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
) as fc.Arbitrary<Entity>;

describe('stored entities', () => {
  it('expand to exactly the entities they were compacted from', () => {
    fc.assert(
      fc.property(fc.array(entity, { maxLength: 4 }), (entities) => {
        expect(roundTrip(stored(entities) as Entity[])).toStrictEqual(stored(entities));
      }),
      { numRuns: 300 },
    );
  });

  it('read entities stored whole (before the compact form) as they are', () => {
    fc.assert(
      fc.property(fc.array(entity, { maxLength: 4 }), (entities) => {
        expect(expandEntities(stored(entities))).toStrictEqual(stored(entities));
      }),
      { numRuns: 200 },
    );
  });

  describe("the models' own entities", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'stored-entities-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('of a text page, an invoice and a table expand back exactly, from less than half the JSON', async () => {
      const pdf = path.join(dir, 'invoice.pdf');
      const lines = ['Northwind Supplies Ltd', 'VAT GB123456789', 'Invoice No: INV-2026-0042', 'Invoice date: 12/03/2026', 'Item Qty Price', 'Pens 40 12.00', 'Total 120.00 EUR'];
      await writeFile(pdf, await textPdf([lines.map((line, i) => ({ text: line, x: 50, y: 60 + 18 * i }))]));
      for (const model of [layoutModel, invoicesUniversalModel]) {
        const [chunk] = documentResult(await model(await modelInput(pdf, 'pdf', [1]))).chunks;
        const entities = stored(chunk!.entities) as Entity[];
        expect(roundTrip(entities)).toStrictEqual(entities);
        expect(z.array(entitySchema).parse(roundTrip(entities))).toStrictEqual(entities);
        expect(JSON.stringify(compactEntities(entities)).length).toBeLessThan(JSON.stringify(entities).length / 2);
      }
    });
  });

  it('keep an entity\'s type as it is, so that Postgres can filter on it', () => {
    fc.assert(
      fc.property(entity, (e) => {
        expect((compactEntities([e])[0] as { type: unknown }).type).toBe(e.type);
      }),
    );
  });

  it('keep a box whose far sides do not follow from its near sides, and points that are not its corners', () => {
    const box = { height: 10, width: 20, left: 5, bottom: 99, x: 5, y: 1, right: 25, top: 1 };
    const points = [{ x: 5, y: 1 }, { x: 25, y: 1 }];
    const [kv] = (compactEntities([{ ...fixedEntity(), keyValues: [{ ...fixedKeyValue(), boundingBox: box, points }] }])[0] as { keyValues: unknown[] }).keyValues;
    expect(kv).toMatchObject({ boundingBox: box, points });
  });
});

function fixedKeyValue() {
  const box = toBoundingBox({ left: 1.5, top: 2.25, width: 30, height: 9.6 });
  return { boundingBox: box, points: cornerPoints(box), confidence: 1, spans: [{ offset: 0, length: 4 }], pageNumber: 1, category: 'Word', categoryNormalized: 'Word', content: 'Word', contentNormalized: null };
}

function fixedEntity(): Entity {
  return expandEntities([{ type: 'Line', category: 'Line', groupName: 'Layout', pageNumber: 1, chunkNumber: 1, confidence: 1, keyValues: [fixedKeyValue()] }])[0]!;
}
