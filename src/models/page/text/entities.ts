import type { ChildKeyValue, Entity, KeyValue, Span } from '../../../domain/entities.js';
import { geometryOf, round4, type Box } from './geometry.js';

/** The page an entity is on: its number in the document and its chunk (1-based position among the pages processed). */
export interface PageRef {
  pageNumber: number;
  chunkNumber: number;
}

/** Where a piece of text is: what a KeyValue's geometry is made from. */
export interface Located {
  box: Box;
  confidence: number;
  spans: Span[];
}

export interface KeyValueText {
  category: string;
  categoryNormalized: string | null;
  content: string;
  contentNormalized: string | null;
}

type EntityInit = Pick<Entity, 'type' | 'category' | 'groupName' | 'confidence'> &
  Partial<Pick<Entity, 'keyValues' | 'qrCode' | 'table' | 'templateBuilderField' | 'notDetected'>>;

/** A detected entity: review, edit and integration fields start empty (the viewer fills them). */
export function newEntity(page: PageRef, init: EntityInit): Entity {
  return {
    groupName: init.groupName,
    type: init.type,
    category: init.category,
    pageNumber: page.pageNumber,
    chunkNumber: page.chunkNumber,
    customFormValues: null,
    qrCode: init.qrCode ?? null,
    table: init.table ?? null,
    templateBuilderField: init.templateBuilderField ?? null,
    keyValues: init.keyValues ?? [],
    addedOn: null,
    editedOn: null,
    viewerEditedOn: null,
    integratedOn: null,
    addedBy: null,
    editedBy: null,
    integratedBy: null,
    addedByExternal: null,
    editedByExternal: null,
    integratedByExternal: null,
    integrationFailedReason: null,
    integrationFailedReasonDetailed: null,
    markedAsSolved: false,
    notDetected: init.notDetected ?? false,
    contentUnderstandingDetected: false,
    confidence: round4(init.confidence),
  };
}

export function keyValueOf(page: PageRef, where: Located, text: KeyValueText): KeyValue {
  // One literal rather than spreads: a text page builds some 600 of these.
  const { boundingBox, points, confidence, spans } = geometryOf(where.box, where.confidence, where.spans);
  return {
    boundingBox,
    points,
    confidence,
    spans,
    pageNumber: page.pageNumber,
    category: text.category,
    categoryNormalized: text.categoryNormalized,
    content: text.content,
    contentNormalized: text.contentNormalized,
  };
}

export function childKeyValueOf(page: PageRef, where: Located, text: KeyValueText, childTemporaryId: string): ChildKeyValue {
  return { ...keyValueOf(page, where, text), childTemporaryId };
}

/** A field the model looked for and did not find, so a reviewer sees it is missing. */
export function notDetectedEntity(page: PageRef, type: string, category: string, groupName: string): Entity {
  return newEntity(page, { type, category, groupName, confidence: 0, notDetected: true });
}

/** The chunk's confidence: the mean of what was found (missing fields do not count). */
export function averageConfidence(entities: readonly Entity[]): number | null {
  const found = entities.filter((e) => !e.notDetected);
  return found.length === 0 ? null : round4(found.reduce((sum, e) => sum + e.confidence, 0) / found.length);
}
