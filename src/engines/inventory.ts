import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { wasmOcrAvailable } from './ocr-wasm.js';

/** Which offline engines this process can use; logged at start-up and reported by /ready. */
export interface EngineInventory {
  tesseract: string | null;
  ffmpeg: string | null;
  ffprobe: string | null;
  pocketsphinx: string | null;
  /** tesseract.js fallback OCR (pure WASM), used when the native binary is absent. */
  tesseractJs: boolean;
  /** OpenAI-compatible transcription endpoint configured for languages pocketsphinx lacks. */
  remoteAsr: boolean;
}

export async function findOnPath(binary: string, searchPath = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, binary);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export async function detectEngines(options: { asrUrl?: string } = {}): Promise<EngineInventory> {
  const [tesseract, ffmpeg, ffprobe, pocketsphinx] = await Promise.all(
    ['tesseract', 'ffmpeg', 'ffprobe', 'pocketsphinx_continuous'].map((b) => findOnPath(b)),
  );
  return {
    tesseract: tesseract ?? null,
    ffmpeg: ffmpeg ?? null,
    ffprobe: ffprobe ?? null,
    pocketsphinx: pocketsphinx ?? null,
    tesseractJs: wasmOcrAvailable(),
    remoteAsr: Boolean(options.asrUrl),
  };
}
