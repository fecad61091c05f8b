import { invalidField } from '../../http/problem.js';
import { newEntity } from '../../models/page/text/entities.js';
import { geometryOf } from '../../models/page/text/geometry.js';
import { normalizeValue } from '../../models/fields/normalize.js';
import type { Cell, Entity, KeyValue, Span } from '../../domain/entities.js';
import type { CellEdit, FieldAddition, KeyValueEdit, ValuePlace } from './review.schemas.js';

export interface Edit {
  userId: number;
  at: Date;
}

/** The page a chunk shows. */
export interface ChunkPage {
  pageNumber: number;
  chunkNumber: number;
}

/**
 * The spans of the page's words inside the box the reviewer pointed at (a word is inside when its
 * centre is), one span per line from its first such word to its last: the page text the value is.
 */
function spansInside(entities: readonly Entity[], box: ValuePlace['box']): Span[] {
  const inside = (b: { left: number; top: number; width: number; height: number }) => {
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
  };
  const spans: Span[] = [];
  for (const line of entities) {
    if (line.type !== 'Line') continue;
    const words = line.keyValues.slice(1).filter((w) => w.spans[0] && inside(w.boundingBox));
    if (words.length === 0) continue;
    const start = Math.min(...words.map((w) => w.spans[0]!.offset));
    const end = Math.max(...words.map((w) => w.spans[0]!.offset + w.spans[0]!.length));
    spans.push({ offset: start, length: end - start });
  }
  return spans.sort((a, b) => a.offset - b.offset);
}

/** A value moved to where the reviewer pointed: that box, and the spans of the words in it. */
function placed(keyValue: KeyValue, place: ValuePlace, entities: readonly Entity[], page: ChunkPage, field: string): KeyValue {
  if (place.pageNumber !== page.pageNumber) throw invalidField(`${field}.place.pageNumber`, `chunk ${page.chunkNumber} shows page ${page.pageNumber}`);
  return { ...keyValue, ...geometryOf(place.box, keyValue.confidence, spansInside(entities, place.box)), pageNumber: place.pageNumber };
}

function editedKeyValue(keyValue: KeyValue, edit: KeyValueEdit): KeyValue {
  const content = edit.content ?? keyValue.content;
  // A value that had a normalized form keeps one that matches its new content, unless the edit sends its own.
  const renormalized = (keyValue.contentNormalized === null && keyValue.content !== '') || content === keyValue.content ? keyValue.contentNormalized : normalizeValue(content);
  return { ...keyValue, content, contentNormalized: edit.contentNormalized === undefined ? renormalized : edit.contentNormalized };
}

/**
 * The empty value of an expected field the model did not find (notDetected, no keyValues): the
 * reviewer fills it in with keyValueIndex 0. It has no place on the page (a zero box); vendor
 * profiles look the reviewer's value up on the page when they learn from the review.
 */
function missingValue(entity: Entity): KeyValue | undefined {
  if (!entity.notDetected || entity.keyValues.length > 0) return undefined;
  return {
    ...geometryOf({ left: 0, top: 0, width: 0, height: 0 }, 0),
    pageNumber: entity.pageNumber,
    category: entity.category,
    categoryNormalized: entity.category,
    content: '',
    contentNormalized: null,
  };
}

/** The edited entity an edit names, or a problem naming the edit's entityIndex. */
function entityAt(entities: readonly Entity[], index: number, field: string): Entity {
  const entity = entities[index];
  if (!entity) throw invalidField(`${field}.entityIndex`, `the chunk has ${entities.length} entities`);
  return entity;
}

/** The marks of a user's edit (not an API client's, so editedByExternal is cleared). */
function editedByUser(by: Edit): Pick<Entity, 'editedBy' | 'editedOn' | 'viewerEditedOn' | 'editedByExternal'> {
  const at = by.at.toISOString();
  return { editedBy: by.userId, editedOn: at, viewerEditedOn: at, editedByExternal: null };
}

/**
 * A chunk's entities with the edits applied, or null when no value changed. An entity whose
 * values change records the reviewer (editedBy, editedOn, and viewerEditedOn: a user's edit, not
 * an API client's, so editedByExternal is cleared). `field` names the edits in error messages.
 */
export function applyKeyValueEdits(entities: readonly Entity[], edits: readonly KeyValueEdit[], page: ChunkPage, by: Edit, field: string): Entity[] | null {
  const result = [...entities];
  let changed = false;
  edits.forEach((edit, i) => {
    const entity = entityAt(result, edit.entityIndex, `${field}.${i}`);
    const keyValue = entity.keyValues[edit.keyValueIndex] ?? (edit.keyValueIndex === 0 ? missingValue(entity) : undefined);
    if (!keyValue) throw invalidField(`${field}.${i}.keyValueIndex`, `entity ${edit.entityIndex} has ${entity.keyValues.length} keyValues`);
    const edited = editedKeyValue(keyValue, edit);
    const next = edit.place ? placed(edited, edit.place, entities, page, `${field}.${i}`) : edited;
    if (!edit.place && next.content === keyValue.content && next.contentNormalized === keyValue.contentNormalized) return;
    const keyValues = [...entity.keyValues];
    keyValues[edit.keyValueIndex] = next;
    const place = edit.place && edit.keyValueIndex === 0 ? { placedByReviewer: true } : {};
    result[edit.entityIndex] = { ...entity, keyValues, ...editedByUser(by), ...place };
    changed = true;
  });
  return changed ? result : null;
}

/** A cell with the reviewer's content; a new cell (one the model left empty) has no place on the page. */
function editedCell(cell: Cell | undefined, edit: CellEdit, pageNumber: number): Cell {
  const content = edit.content.trim();
  const base: Cell = cell ?? { ...geometryOf({ left: 0, top: 0, width: 0, height: 0 }, 1), rowIndex: edit.rowIndex, columnIndex: edit.columnIndex, content: '', contentNormalized: null, pageNumber };
  const normalized = content === base.content ? base.contentNormalized : normalizeValue(content);
  return { ...base, content, contentNormalized: edit.contentNormalized === undefined ? normalized : edit.contentNormalized };
}

/**
 * A chunk's entities with the reviewer's table cells applied (tableRows and the row's
 * tableRowsTableContent; an empty content removes the cell), or null when no cell changed. The
 * table entity records the reviewer as an edited entity does.
 */
export function applyCellEdits(entities: readonly Entity[], edits: readonly CellEdit[], by: Edit, field: string): Entity[] | null {
  const result = [...entities];
  let changed = false;
  edits.forEach((edit, i) => {
    const entity = entityAt(result, edit.entityIndex, `${field}.${i}`);
    const table = entity.table;
    if (!table) throw invalidField(`${field}.${i}.entityIndex`, `entity ${edit.entityIndex} is a ${entity.type}, not a table`);
    if (edit.rowIndex >= table.rowCount) throw invalidField(`${field}.${i}.rowIndex`, `the table has rows 1 to ${table.rowCount - 1}`);
    if (edit.columnIndex >= table.columnCount) throw invalidField(`${field}.${i}.columnIndex`, `the table has ${table.columnCount} columns`);
    const row = table.tableRows[String(edit.rowIndex)] ?? [];
    const cell = row.find((c) => c.columnIndex === edit.columnIndex);
    const next = editedCell(cell, edit, entity.pageNumber);
    if (cell ? next.content === cell.content && next.contentNormalized === cell.contentNormalized : next.content === '') return;
    const cells = [...row.filter((c) => c.columnIndex !== edit.columnIndex), ...(next.content === '' ? [] : [next])].sort((a, b) => a.columnIndex - b.columnIndex);
    const tableRows = { ...table.tableRows, [String(edit.rowIndex)]: cells };
    if (cells.length === 0) delete tableRows[String(edit.rowIndex)];
    const text = Array.from({ length: table.columnCount }, (_, c) => cells.find((x) => x.columnIndex === c)?.content ?? '').join('\t');
    const tableRowsTableContent = { ...table.tableRowsTableContent, [String(edit.rowIndex)]: text };
    if (cells.length === 0) delete tableRowsTableContent[String(edit.rowIndex)];
    result[edit.entityIndex] = { ...entity, table: { ...table, tableRows, tableRowsTableContent }, ...editedByUser(by) };
    changed = true;
  });
  return changed ? result : null;
}

/**
 * The chunk's entities with the reviewer's added fields after them (addedBy, addedOn), or null
 * when none is added; an added field the model expected and did not find takes its notDetected
 * entity's place. A field the chunk already reports is edited, not added again.
 */
export function addFields(
  entities: readonly Entity[],
  added: readonly FieldAddition[],
  page: ChunkPage,
  by: Edit,
  field: string,
): Entity[] | null {
  if (added.length === 0) return null;
  const result = [...entities];
  const at = by.at.toISOString();
  const groupName = entities.find((e) => e.type === 'Field')?.groupName ?? 'Fields';
  added.forEach((addition, i) => {
    // The empty slot of an expected field the model did not find is filled by the addition, in its place.
    const slot = result.findIndex((e) => e.type === 'Field' && e.category === addition.category && missingValue(e) !== undefined);
    if (slot < 0 && result.some((e) => e.type === 'Field' && e.category === addition.category)) {
      throw invalidField(`${field}.${i}.category`, `the chunk already has a ${addition.category} field: edit it`);
    }
    const content = addition.content.trim();
    const given: KeyValue = {
      ...geometryOf({ left: 0, top: 0, width: 0, height: 0 }, 1),
      pageNumber: page.pageNumber,
      category: addition.category,
      categoryNormalized: addition.category,
      content,
      contentNormalized: addition.contentNormalized === undefined ? normalizeValue(content) : addition.contentNormalized,
    };
    const value = addition.place ? placed(given, addition.place, entities, page, `${field}.${i}`) : given;
    const entity = newEntity(page, { type: 'Field', category: addition.category, groupName, confidence: 1, keyValues: [value] });
    const addedEntity: Entity = { ...entity, addedBy: by.userId, addedOn: at, addedByExternal: null, ...(addition.place ? { placedByReviewer: true } : {}) };
    if (slot >= 0) result[slot] = addedEntity;
    else result.push(addedEntity);
  });
  return result;
}
