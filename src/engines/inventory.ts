import { locatePocketsphinx } from './asr.js';
import { findOnPath } from './find-on-path.js';
import { locateMediaTool } from './media-tools.js';
import { wasmOcrAvailable } from './ocr-wasm.js';
import { paddleOcrAvailable } from './paddle-ocr.js';

/** Which offline engines this process can use; logged at start-up and reported by /ready. */
export interface EngineInventory {
  tesseract: string | null;
  /** The system's ffmpeg, or the build of the npm package @ffmpeg-installer/ffmpeg (media-tools.ts). */
  ffmpeg: string | null;
  ffprobe: string | null;
  /** pocketsphinx_continuous, when its en-US model is installed too. */
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
  const [tesseract, ffmpeg, ffprobe, pocketsphinx, pdftoppm] = await Promise.all([
    findOnPath('tesseract'),
    locateMediaTool('ffmpeg'),
    locateMediaTool('ffprobe'),
    locatePocketsphinx(),
    findOnPath('pdftoppm'),
  ]);
  return {
    tesseract,
    ffmpeg,
    ffprobe,
    pocketsphinx,
    pdftoppm,
    tesseractJs: wasmOcrAvailable(),
    ppOcr: paddleOcrAvailable(),
    remoteAsr: Boolean(options.asrUrl),
  };
}

/** Workspace types whose tasks fail on this machine, and why: what an operator installs or sets. */
export interface UnavailableWork {
  /** TemplateType names. */
  workspaceTypes: string[];
  reason: string;
}

/**
 * What the engines found cannot run. OCR always can (tesseract.js stands in for tesseract, pdf.js
 * for pdftoppm); recordings need ffmpeg and ffprobe to be decoded and a speech engine to be heard.
 */
export function unavailableWork(engines: EngineInventory): UnavailableWork[] {
  const missing: string[] = [];
  if (!engines.ffmpeg) missing.push('ffmpeg is not installed: install ffmpeg or the npm package @ffmpeg-installer/ffmpeg');
  if (!engines.ffprobe) missing.push('ffprobe is not installed: install ffmpeg or the npm package @ffprobe-installer/ffprobe');
  if (!engines.pocketsphinx && !engines.remoteAsr) {
    missing.push('no speech engine: install pocketsphinx with its en-US model, or set ASR_URL to an OpenAI-compatible transcription endpoint');
  }
  if (missing.length) return [{ workspaceTypes: ['Transcripts'], reason: missing.join('; ') }];
  if (!engines.remoteAsr) {
    return [{ workspaceTypes: ['Transcripts'], reason: 'in languages other than en-US: pocketsphinx reads en-US only; set ASR_URL to an OpenAI-compatible transcription endpoint' }];
  }
  return [];
}
