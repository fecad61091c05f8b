/**
 * pdfjs-dist's legacy build bundles core-js, which on Node 20 replaces built-ins for every module
 * of the process (of the thread that loads it) with JavaScript polyfills:
 * - JSON.parse and JSON.stringify (no JSON.rawJSON yet): Prisma's query parameters, request
 *   bodies, logs and the models' results were serialized several times slower (a 4 MB string
 *   parameter held the event loop for a second);
 * - Array.prototype.push (V8 11 does not throw on a push to an array whose length is read-only):
 *   every push of pdf.js' parser and of the code reading its pages went through a JavaScript
 *   loop, about a tenth of the CPU of a text page.
 * Imported before pdfjs (engines/pdf.ts), this module keeps the natives; restoreNativeBuiltins()
 * puts them back once pdfjs is loaded (pdfjs itself needs nothing these polyfills add).
 */
const nativeParse = JSON.parse;
const nativeStringify = JSON.stringify;
const nativePush = Array.prototype.push;

export function restoreNativeBuiltins(): void {
  JSON.parse = nativeParse;
  JSON.stringify = nativeStringify;
  // As the built-in is defined: writable, configurable, not enumerable.
  Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true, enumerable: false });
}
