import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from 'pdf-lib';
import { XML_LIMITS } from './xml-tree.js';

/** An XML file a PDF carries (PDF/A-3 associated files, the EmbeddedFiles name tree). */
export type EmbeddedXml = { fileName: string } & ({ content: Uint8Array } | { problem: string });

/**
 * The names the e-invoice standards give their XML (Factur-X, ZUGFeRD 1 and 2, XRechnung): tried
 * first; any other embedded .xml is tried after them, as some tools name it their own way.
 */
const STANDARD_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/** File specifications looked at, at most: a name tree of thousands is no invoice's. */
const MAX_FILE_SPECS = 50;

/**
 * The XML files embedded in a PDF, the standards' names first: from the EmbeddedFiles name tree
 * and the catalog's associated files (Factur-X requires both, some tools write one). Each is
 * inflated no further than an invoice XML may be, so a compression bomb costs nothing; one that
 * is too large or compressed in a way we do not read comes with its problem instead. None when the
 * PDF has none or cannot be parsed (the printed path then reports the PDF's own problem).
 */
export async function embeddedXmlFiles(pdfPath: string): Promise<EmbeddedXml[]> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(await readFile(pdfPath), { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return [];
  }
  const specs = new Set<PDFDict>();
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  collectNameTree(names, specs, 0);
  const associated = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  for (let i = 0; associated && i < associated.size() && specs.size < MAX_FILE_SPECS; i++) {
    const spec = associated.lookup(i);
    if (spec instanceof PDFDict) specs.add(spec);
  }
  const files = [...specs].flatMap((spec) => {
    const fileName = textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F')));
    if (!fileName || !/\.xml$/i.test(fileName.trim())) return [];
    const ef = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
    const stream = ef?.lookup(PDFName.of('F')) ?? ef?.lookup(PDFName.of('UF'));
    return stream instanceof PDFRawStream ? [{ fileName: fileName.trim(), ...contentOf(stream) }] : [];
  });
  const rank = (file: EmbeddedXml) => {
    const at = STANDARD_NAMES.indexOf(file.fileName.toLowerCase());
    return at < 0 ? STANDARD_NAMES.length : at;
  };
  // The same file named by both the name tree and the associated files counts once.
  const unique = files.filter((file, i) => files.findIndex((f) => f.fileName === file.fileName) === i);
  return unique.sort((a, b) => rank(a) - rank(b));
}

function collectNameTree(node: PDFDict | undefined, specs: Set<PDFDict>, depth: number): void {
  // A name tree is shallow; a cycle or a deep one is a hostile file's.
  if (!node || depth > 8) return;
  const names = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  for (let i = 1; names && i < names.size() && specs.size < MAX_FILE_SPECS; i += 2) {
    const spec = names.lookup(i);
    if (spec instanceof PDFDict) specs.add(spec);
  }
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let i = 0; kids && i < kids.size() && specs.size < MAX_FILE_SPECS; i++) {
    const kid = kids.lookup(i);
    if (kid instanceof PDFDict) collectNameTree(kid, specs, depth + 1);
  }
}

function textOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** The stream's bytes: stored as they are, or deflated (what PDF writers use), never inflated past the XML size limit. */
function contentOf(stream: PDFRawStream): { content: Uint8Array } | { problem: string } {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (filters.length === 0) return { content: stream.contents };
  if (filters.length > 1 || !(filters[0] instanceof PDFName) || filters[0].asString() !== '/FlateDecode') return { problem: 'the embedded file is compressed in a way we do not read' };
  try {
    return { content: inflateSync(stream.contents, { maxOutputLength: XML_LIMITS.maxBytes }) };
  } catch (err) {
    return { problem: err instanceof RangeError ? `the embedded file is larger than the ${XML_LIMITS.maxBytes} bytes an invoice XML may be` : 'the embedded file cannot be inflated' };
  }
}
