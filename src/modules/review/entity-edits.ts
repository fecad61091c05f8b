import { invalidField } from '../../http/problem.js';
import { newEntity } from '../../models/page/text/entities.js';
import { geometryOf } from '../../models/page/text/geometry.js';
import { normalizeValue } from '../../models/fields/normalize.js';
import type { Entity, KeyValue } from '../exports/document-export.schemas.js';
import type { FieldAddition, KeyValueEdit } from './review.schemas.js';

export interface Edit {
  userId: number;
  at: Date;
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

/**
 * A chunk's entities with the edits applied, or null when no value changed. An entity whose
 * values change records the reviewer (editedBy, editedOn, and viewerEditedOn: a user's edit, not
 * an API client's, so editedByExternal is cleared). `field` names the edits in error messages.
 */
export function applyKeyValueEdits(entities: readonly Entity[], edits: readonly KeyValueEdit[], by: Edit, field: string): Entity[] | null {
  const result = [...entities];
  const at = by.at.toISOString();
  let changed = false;
  edits.forEach((edit, i) => {
    const entity = result[edit.entityIndex];
    if (!entity) throw invalidField(`${field}.${i}.entityIndex`, `the chunk has ${entities.length} entities`);
    const keyValue = entity.keyValues[edit.keyValueIndex] ?? (edit.keyValueIndex === 0 ? missingValue(entity) : undefined);
    if (!keyValue) throw invalidField(`${field}.${i}.keyValueIndex`, `entity ${edit.entityIndex} has ${entity.keyValues.length} keyValues`);
    const next = editedKeyValue(keyValue, edit);
    if (next.content === keyValue.content && next.contentNormalized === keyValue.contentNormalized) return;
    const keyValues = [...entity.keyValues];
    keyValues[edit.keyValueIndex] = next;
    result[edit.entityIndex] = { ...entity, keyValues, editedBy: by.userId, editedOn: at, viewerEditedOn: at, editedByExternal: null };
    changed = true;
  });
  return changed ? result : null;
}

/**
 * The chunk's entities with the reviewer's added fields after them (addedBy, addedOn), or null
 * when none is added. A field the chunk already reports is edited, not added again.
 */
export function addFields(
  entities: readonly Entity[],
  added: readonly FieldAddition[],
  page: { pageNumber: number; chunkNumber: number },
  by: Edit,
  field: string,
): Entity[] | null {
  if (added.length === 0) return null;
  const result = [...entities];
  const at = by.at.toISOString();
  const groupName = entities.find((e) => e.type === 'Field')?.groupName ?? 'Fields';
  added.forEach((addition, i) => {
    if (result.some((e) => e.type === 'Field' && e.category === addition.category)) {
      throw invalidField(`${field}.${i}.category`, `the chunk already has a ${addition.category} field: edit it`);
    }
    const content = addition.content.trim();
    const value: KeyValue = {
      ...geometryOf({ left: 0, top: 0, width: 0, height: 0 }, 1),
      pageNumber: page.pageNumber,
      category: addition.category,
      categoryNormalized: addition.category,
      content,
      contentNormalized: addition.contentNormalized === undefined ? normalizeValue(content) : addition.contentNormalized,
    };
    const entity = newEntity(page, { type: 'Field', category: addition.category, groupName, confidence: 1, keyValues: [value] });
    result.push({ ...entity, addedBy: by.userId, addedOn: at, addedByExternal: null });
  });
  return result;
}
