import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes as zxingReadBarcodes, type ReadResult } from 'zxing-wasm/reader';

/** Decoded pixels, 4 bytes per pixel (RGBA), row by row. */
export interface RgbaImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

export interface Barcode {
  text: string;
  /** zxing's format name: QRCode, DataMatrix, EAN13, Code128, ... */
  format: ReadResult['format'];
  /** Corner points in pixels of the input image. */
  position: ReadResult['position'];
}

let moduleReady: Promise<unknown> | undefined;

// zxing-wasm downloads its .wasm from a CDN unless it is handed the binary; the package ships it.
function ensureModule(): Promise<unknown> {
  moduleReady ??= readFile(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'))
    .then((wasm) =>
      prepareZXingModule({
        overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
        fireImmediately: true,
      }),
    )
    .catch((error: unknown) => {
      moduleReady = undefined; // let the next call try again instead of failing forever
      throw error;
    });
  return moduleReady;
}

/** Finds and decodes every barcode (QR, DataMatrix, 1D, ...) in an encoded image (PNG, JPEG) or raw RGBA pixels. */
export async function readBarcodes(image: Uint8Array | RgbaImage): Promise<Barcode[]> {
  await ensureModule();
  const input =
    image instanceof Uint8Array
      ? image
      : { data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength), width: image.width, height: image.height };
  const results = await zxingReadBarcodes(input);
  return results.filter((result) => result.isValid).map(({ text, format, position }) => ({ text, format, position }));
}
