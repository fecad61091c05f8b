import type { Box } from '../../../engines/geometry.js';
import type { BoundingBox, Geometry, Point, Span } from '../../../domain/entities.js';

export type { Box };

// Two decimals are a hundredth of a point or pixel: finer than any engine measures, and the
// stored JSON stays small.
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The export's eight-number box of a page-unit rectangle (y grows downwards, so bottom > top). */
export function toBoundingBox(box: Box): BoundingBox {
  const left = round2(box.left);
  const top = round2(box.top);
  const width = round2(box.width);
  const height = round2(box.height);
  return { height, width, left, bottom: round2(top + height), x: left, y: top, right: round2(left + width), top };
}

/** Corners clockwise from the top-left. */
export function cornerPoints(box: Box): Point[] {
  return cornersOf(toBoundingBox(box));
}

function cornersOf({ left, top, right, bottom }: BoundingBox): Point[] {
  return [
    { x: left, y: top },
    { x: right, y: top },
    { x: right, y: bottom },
    { x: left, y: bottom },
  ];
}

export function geometryOf(box: Box, confidence: number, spans: Span[] = []): Geometry {
  const boundingBox = toBoundingBox(box);
  return { boundingBox, points: cornersOf(boundingBox), confidence: round4(confidence), spans };
}

/** A confidence keeps four decimals: enough to order results, short in JSON. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** The smallest rectangle holding every box (and every point). */
export function unionBox(boxes: readonly Box[]): Box {
  if (boxes.length === 0) throw new RangeError('unionBox needs at least one box');
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

export function boxOfPoints(points: readonly Point[]): Box {
  return unionBox(points.map(({ x, y }) => ({ left: x, top: y, width: 0, height: 0 })));
}

export function scaleBox(box: Box, factor: number): Box {
  return { left: box.left * factor, top: box.top * factor, width: box.width * factor, height: box.height * factor };
}

export function growBox(box: Box, margin: number): Box {
  return { left: box.left - margin, top: box.top - margin, width: box.width + 2 * margin, height: box.height + 2 * margin };
}

export function centerOf(box: Box): { x: number; y: number } {
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

export function containsPoint(box: Box, { x, y }: { x: number; y: number }): boolean {
  return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
}

/** Length of the overlap of two intervals (0 when apart). */
export function overlap(start1: number, end1: number, start2: number, end2: number): number {
  return Math.max(0, Math.min(end1, end2) - Math.max(start1, start2));
}
