/**
 * The Layout model alone on a generated text PDF (the pipeline benchmark's prose pages), in this
 * process, page after page as an engine thread runs it: CPU milliseconds per page, and the JSON a
 * page's chunk stores (compacted as the engine thread stores it; the export's whole shape beside it). Run under `node --cpu-prof` to see where the time goes.
 *
 *   npx tsx bench/layout-profile.ts [pages=200]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TemplateType } from '../src/domain/enums.js';
import { storableJson } from '../src/db/storable.js';
import { compactEntities } from '../src/domain/stored-entities.js';
import { layoutModel } from '../src/models/page/layout.js';
import { threadModelInput } from '../test/models/document-fixtures.js';
import { prosePdf } from './lib/documents.js';
import { say } from './lib/report.js';

const pages = Number(process.argv[2] ?? 200);
const dir = await mkdtemp(path.join(tmpdir(), 'layout-profile-'));
try {
  const source = path.join(dir, 'text.pdf');
  await writeFile(source, await prosePdf(pages));
  let bytes = 0;
  let wholeBytes = 0;
  let wholeCpu = 0; // measuring the whole shape is not the thread's work: left out of the CPU a page
  let entities = 0;
  const input = {
    ...threadModelInput(source, 'pdf', dir, { pages: Array.from({ length: pages }, (_, i) => i + 1) }),
    saveOutput: async () => '',
    emitChunk: async (chunk: { entities: Array<Record<string, unknown>> }) => {
      entities += chunk.entities.length;
      bytes += storableJson({ ...chunk, entities: compactEntities(chunk.entities) }).length;
      const before = process.cpuUsage();
      wholeBytes += storableJson(chunk).length;
      const spent = process.cpuUsage(before);
      wholeCpu += spent.user + spent.system;
    },
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await layoutModel({ ...input, templateType: TemplateType.Layout });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system - wholeCpu) / 1000;
  say(`${pages} text pages: ${(cpuMs / pages).toFixed(1)} ms CPU a page (${((performance.now() - started) / pages).toFixed(1)} ms wall), ${(entities / pages).toFixed(0)} entities and ${(bytes / pages / 1024).toFixed(0)} KB of stored JSON a page (${(wholeBytes / pages / 1024).toFixed(0)} KB in the export's whole shape)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
