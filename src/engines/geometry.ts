/** Axis-aligned rectangle, top-left origin, y down; points for PDF pages, pixels for images. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
