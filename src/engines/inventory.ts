import { findOnPath } from './find-on-path.js';
import { wasmOcrAvailable } from './ocr-wasm.js';
import { paddleOcrAvailable } from './paddle-ocr.js';

/** Which offline engines this process can use; logged at start-up and reported by /ready. */
export interface EngineInventory {
  tesseract: string | null;
  ffmpeg: string | null;
  ffprobe: string | null;
  pocketsphinx: string | null;
  /** poppler's renderer: draws pages for OCR and the review page's images (pdf.js draws OCR pages without it). */
  pdftoppm: string | null;
  /** tesseract.js fallback OCR (pure WASM), used when the native binary is absent. */
  tesseractJs: boolean;
  /** PP-OCR through ONNX Runtime (paddle-ocr.ts), which reads receipts; tesseract reads them without it. */
  ppOcr: boolean;
  /** OpenAI-compatible transcription endpoint configured for languages pocketsphinx lacks. */
  remoteAsr: boolean;
}

export async function detectEngines(options: { asrUrl?: string } = {}): Promise<EngineInventory> {
  const [tesseract, ffmpeg, ffprobe, pocketsphinx, pdftoppm] = await Promise.all(
    ['tesseract', 'ffmpeg', 'ffprobe', 'pocketsphinx_continuous', 'pdftoppm'].map((b) => findOnPath(b)),
  );
  return {
    tesseract: tesseract ?? null,
    ffmpeg: ffmpeg ?? null,
    ffprobe: ffprobe ?? null,
    pocketsphinx: pocketsphinx ?? null,
    pdftoppm: pdftoppm ?? null,
    tesseractJs: wasmOcrAvailable(),
    ppOcr: paddleOcrAvailable(),
    remoteAsr: Boolean(options.asrUrl),
  };
}
