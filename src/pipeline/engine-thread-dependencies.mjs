// A module loader hook the engine threads register after tsx's (engine-thread-tsx.mjs), so it is
// asked first: the dependencies' own ES modules load as they are, not through tsx. tsx rewrites
// every ES module that has a dynamic import and keeps its rewritten text and source map for stack
// traces: pdf.js alone (3 MB of JavaScript, plus its source maps, which tsx's source-map support
// would read too) then cost a thread about 150 MB more RSS and seconds more CPU than compiled.
// Their `sourceMappingURL` is dropped as well: a dependency's stack frames need no original
// positions. TypeScript, CommonJS and JSON still go to tsx and Node.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const SOURCE_MAP_COMMENT = /\/\/# sourceMappingURL=\S*\s*$/;

export async function load(url, context, nextLoad) {
  if (context.format === 'module' && url.startsWith('file:') && url.includes('/node_modules/')) {
    const source = (await readFile(fileURLToPath(url), 'utf8')).replace(SOURCE_MAP_COMMENT, '');
    return { format: 'module', source, shortCircuit: true };
  }
  return nextLoad(url, context);
}
