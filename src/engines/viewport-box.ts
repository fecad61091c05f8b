/**
 * Boxes in a page's viewport (points, top-left origin, the page's rotation applied) around points
 * given in PDF user space.
 */
import type { Box } from './geometry.js';

/** A PDF transformation matrix [a, b, c, d, e, f]: (x, y) → (ax + cy + e, bx + dy + f). */
export type Matrix = readonly [number, number, number, number, number, number];

/** A page viewport's transformation (pdf.js' PageViewport.transform), from user space to the viewport. */
export type ViewportTransform = ArrayLike<number>;

/**
 * The box around points mapped by a matrix and then the viewport, with no array made per point
 * (a page of vector marks maps tens of thousands): the same arithmetic, in the same order, as
 * pdf.js' convertToViewportPoint, and Math.min/Math.max as over all points at once.
 */
export class ViewportBox {
  private left = Number.POSITIVE_INFINITY;
  private top = Number.POSITIVE_INFINITY;
  private right = Number.NEGATIVE_INFINITY;
  private bottom = Number.NEGATIVE_INFINITY;

  constructor(private readonly viewport: ViewportTransform) {}

  /** Adds the point (x, y) drawn under `m`. */
  add(m: Matrix, x: number, y: number): void {
    const [a, b, c, d, e, f] = m;
    this.addUser(a * x + c * y + e, b * x + d * y + f);
  }

  /** Adds a point already in user space. */
  addUser(x: number, y: number): void {
    const v = this.viewport;
    const px = x * v[0]! + y * v[2]! + v[4]!;
    const py = x * v[1]! + y * v[3]! + v[5]!;
    this.left = Math.min(this.left, px);
    this.top = Math.min(this.top, py);
    this.right = Math.max(this.right, px);
    this.bottom = Math.max(this.bottom, py);
  }

  box(): Box {
    return { left: this.left, top: this.top, width: this.right - this.left, height: this.bottom - this.top };
  }
}

