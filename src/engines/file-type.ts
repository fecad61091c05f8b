import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

/** How the pipeline treats a file: which engine counts its pages or minutes. */
export type FileKind = 'pdf' | 'image' | 'tiff' | 'audio' | 'video' | 'xml' | 'unsupported';

export interface SniffedFile {
  /** Detected from the content; null when the content matches no known signature. */
  mime: string | null;
  ext: string | null;
  kind: FileKind;
}

// Formats sharp decodes that make sense as document pages. TIFF is apart because it may hold pages.
const SINGLE_PAGE_IMAGES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/bmp', 'image/webp', 'image/gif']);

// Containers file-type cannot attribute to audio or video; ffprobe tells what they hold.
const MEDIA_CONTAINERS = new Set(['application/ogg', 'application/vnd.ms-asf']);

/** Sniffs a file's type from its content (never its name or a client's claim). */
export async function sniffFile(path: string): Promise<SniffedFile> {
  const detected = await fileTypeFromFile(path);
  if (!detected) return (await startsLikeXml(path)) ? { mime: XML_MIME, ext: 'xml', kind: 'xml' } : { mime: null, ext: null, kind: 'unsupported' };
  return { mime: detected.mime, ext: detected.ext, kind: kindOf(detected.mime) };
}

function kindOf(mime: string): FileKind {
  if (mime === 'application/pdf') return 'pdf';
  if (mime === 'image/tiff') return 'tiff';
  if (SINGLE_PAGE_IMAGES.has(mime)) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/') || MEDIA_CONTAINERS.has(mime)) return 'video';
  if (mime === XML_MIME) return 'xml';
  return 'unsupported';
}

const XML_MIME = 'application/xml';

/**
 * XML without an XML declaration (file-type knows only "<?xml "): a root element's start tag
 * first, after a byte order mark, white space and comments. An e-invoice (UBL, CII) may be sent
 * so; whether it is an invoice is the model's to find out.
 */
async function startsLikeXml(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const text = head.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
    return /^\s*(?:<!--[\s\S]*?-->\s*)*<[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?[\s>/]/.test(text);
  } finally {
    await file.close();
  }
}
