/**
 * pdfjs-dist's legacy build bundles core-js, which on Node 20 (no JSON.rawJSON yet) replaces the
 * global JSON.parse and JSON.stringify with JavaScript polyfills, for every module of the process:
 * Prisma's query parameters, request bodies, logs and the models' results were then serialized
 * several times slower (a 4 MB string parameter held the event loop for a second). Imported before
 * pdfjs (engines/pdf.ts), this module keeps the natives; restoreNativeJson() puts them back once
 * pdfjs is loaded (pdfjs itself needs nothing the polyfills add).
 */
const nativeParse = JSON.parse;
const nativeStringify = JSON.stringify;

export function restoreNativeJson(): void {
  JSON.parse = nativeParse;
  JSON.stringify = nativeStringify;
}
