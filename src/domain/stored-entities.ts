import type { BoundingBox, Entity, Point } from './entities.js';

/**
 * The form in which a chunk's entities are stored: the Entity shape without what can be derived
 * again, expanded back to exactly the Entity it came from when read. A text page's entities are
 * some 600 objects, most of them a word's key-value; in the export's shape every one repeats its
 * bounding box in its four corner points and its coordinates twice in the box, and an entity
 * carries some twenty review fields that are null until a reviewer acts. Storing all that made
 * Postgres parse, compress and write about 235 KB a text page.
 *
 * What the stored form leaves out or writes shorter (only where the expansion gives back exactly
 * the same value; anything else is kept as it is):
 * - an entity's fields that hold their starting value (nulls, false, no keyValues);
 * - a bounding box whose x, y, right and bottom follow from left, top, width and height as the
 *   models compute them: stored as [left, top, width, height];
 * - points that are the box's corners clockwise from the top-left;
 * - a span {offset, length}: stored as [offset, length];
 * - in a key-value: its pageNumber when it is its entity's, categoryNormalized when it equals its
 *   category, contentNormalized when null.
 *
 * Rows stored in the full Entity shape (before this form, or by any writer that does not compact)
 * read as they are: every rule fills only a key that is absent or a value in its short form, and
 * the full shape has neither.
 */

type Json = Record<string, unknown>;

/** An entity's fields that start empty (newEntity) and the value they start with. */
const ENTITY_DEFAULTS: ReadonlyArray<readonly [keyof Entity, null | false]> = [
  ['customFormValues', null],
  ['qrCode', null],
  ['table', null],
  ['templateBuilderField', null],
  ['addedOn', null],
  ['editedOn', null],
  ['viewerEditedOn', null],
  ['integratedOn', null],
  ['addedBy', null],
  ['editedBy', null],
  ['integratedBy', null],
  ['addedByExternal', null],
  ['editedByExternal', null],
  ['integratedByExternal', null],
  ['integrationFailedReason', null],
  ['integrationFailedReasonDetailed', null],
  ['markedAsSolved', false],
  ['notDetected', false],
  ['contentUnderstandingDetected', false],
];

/** The entities as stored (the JSON the chunk table's `entities` column holds). */
export function compactEntities(entities: ReadonlyArray<Entity | Record<string, unknown>>): Json[] {
  return entities.map((entity) => compactEntity(entity as Entity));
}

/** The entities a stored chunk holds, in the export's shape, whichever form it was stored in. */
export function expandEntities(stored: unknown): Entity[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((entity) => (isObject(entity) ? expandEntity(entity) : entity) as Entity);
}

function compactEntity(entity: Entity): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(entity)) {
    if (ENTITY_DEFAULTS.some(([k, start]) => k === key && value === start)) continue;
    if (key === 'keyValues' && Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  if (entity.keyValues.length > 0) out.keyValues = entity.keyValues.map((kv) => compactKeyValue(kv, entity.pageNumber));
  if (entity.qrCode) out.qrCode = compactParts(entity.qrCode, entity.pageNumber);
  if (entity.table) out.table = compactParts(entity.table, entity.pageNumber);
  if (entity.templateBuilderField) out.templateBuilderField = compactParts(entity.templateBuilderField, entity.pageNumber);
  return out;
}

function expandEntity(stored: Json): Json {
  const out: Json = { ...stored };
  for (const [key, start] of ENTITY_DEFAULTS) if (!(key in out)) out[key] = start;
  const pageNumber = out.pageNumber;
  out.keyValues = Array.isArray(stored.keyValues) ? stored.keyValues.map((kv) => (isObject(kv) ? expandKeyValue(kv, pageNumber) : kv)) : (stored.keyValues ?? []);
  for (const key of ['qrCode', 'table', 'templateBuilderField'] as const) {
    if (isObject(out[key])) out[key] = expandParts(out[key], pageNumber);
  }
  return out;
}

/**
 * The geometry of an object with a place on the page (a key-value, a code, a table, a cell, a
 * placement), compacted in it and, through its arrays and records, in the objects it holds.
 */
function compactParts(value: unknown, pageNumber: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => compactParts(item, pageNumber));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === 'keyValues' && Array.isArray(item) ? item.map((kv) => (isObject(kv) ? compactKeyValue(kv, pageNumber) : kv)) : compactParts(item, pageNumber);
  }
  return compactGeometry(out, () => false);
}

function expandParts(value: unknown, pageNumber: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => expandParts(item, pageNumber));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === 'keyValues' && Array.isArray(item) ? item.map((kv) => (isObject(kv) ? expandKeyValue(kv, pageNumber) : kv)) : expandParts(item, pageNumber);
  }
  return expandGeometry(out);
}

function compactKeyValue(kv: object, pageNumber: unknown): Json {
  const source = kv as Json;
  return compactGeometry(source, (key, value) =>
    (key === 'pageNumber' && value === pageNumber) ||
    (key === 'categoryNormalized' && typeof source.category === 'string' && value === source.category) ||
    (key === 'contentNormalized' && value === null),
  );
}

function expandKeyValue(stored: Json, pageNumber: unknown): Json {
  const out = expandGeometry({ ...stored });
  if (!('pageNumber' in out)) out.pageNumber = pageNumber;
  if (!('categoryNormalized' in out)) out.categoryNormalized = out.category;
  if (!('contentNormalized' in out)) out.contentNormalized = null;
  return out;
}

/**
 * A copy of `source` without the keys `leaveOut` names, its box, points and spans compacted when
 * it has a bounding box. A copy built key by key rather than deleting keys: V8 turns an object
 * that loses a key into a slow dictionary, which JSON.stringify then walks slowly.
 */
function compactGeometry(source: Json, leaveOut: (key: string, value: unknown) => boolean): Json {
  const box = source.boundingBox;
  const placed = isObject(box);
  const pointsDerived = placed && Array.isArray(source.points) && pointsAreCorners(source.points, box as BoundingBox);
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (leaveOut(key, value) || (key === 'points' && pointsDerived)) continue;
    if (placed && key === 'boundingBox' && isDerivableBox(box)) out[key] = [box.left, box.top, box.width, box.height];
    else if (placed && key === 'spans' && Array.isArray(value)) out[key] = value.map((span) => (isObject(span) && isPlainSpan(span) ? [span.offset, span.length] : span));
    else out[key] = value;
  }
  return out;
}

function expandGeometry(out: Json): Json {
  if (!('boundingBox' in out)) return out;
  if (Array.isArray(out.boundingBox)) out.boundingBox = boxOf(out.boundingBox as number[]);
  if (!('points' in out) && isObject(out.boundingBox)) out.points = cornersOf(out.boundingBox as BoundingBox);
  if (Array.isArray(out.spans)) out.spans = out.spans.map((span) => (Array.isArray(span) ? { offset: span[0], length: span[1] } : span));
  return out;
}

// As the models compute a box's far sides (toBoundingBox): rounded to a hundredth.
const round2 = (value: number) => Math.round(value * 100) / 100;

function boxOf([left, top, width, height]: number[]): BoundingBox {
  return { height: height!, width: width!, left: left!, bottom: round2(top! + height!), x: left!, y: top!, right: round2(left! + width!), top: top! };
}

const BOX_KEYS = ['height', 'width', 'left', 'bottom', 'x', 'y', 'right', 'top'];

/** Whether the box is exactly what boxOf gives back from its left, top, width and height. */
function isDerivableBox(box: Json): box is Json & BoundingBox {
  const keys = Object.keys(box);
  if (keys.length !== BOX_KEYS.length || !BOX_KEYS.every((k) => typeof box[k] === 'number')) return false;
  const again = boxOf([box.left, box.top, box.width, box.height] as number[]);
  return BOX_KEYS.every((k) => Object.is(again[k as keyof BoundingBox], box[k]));
}

function cornersOf(box: BoundingBox): Point[] {
  return [
    { x: box.left, y: box.top },
    { x: box.right, y: box.top },
    { x: box.right, y: box.bottom },
    { x: box.left, y: box.bottom },
  ];
}

function pointsAreCorners(points: unknown[], box: BoundingBox): boolean {
  const corners = cornersOf(box);
  return (
    points.length === 4 &&
    points.every((p, i) => isObject(p) && Object.keys(p).length === 2 && Object.is(p.x, corners[i]!.x) && Object.is(p.y, corners[i]!.y))
  );
}

function isPlainSpan(span: Json): boolean {
  const keys = Object.keys(span);
  return keys.length === 2 && typeof span.offset === 'number' && typeof span.length === 'number';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
