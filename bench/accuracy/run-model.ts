import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TemplateType } from '../../src/domain/enums.js';
import type { FileKind } from '../../src/engines/file-type.js';
import type { Model, ModelInput } from '../../src/models/model.js';
import type { ReportedField } from './score.js';

export interface ModelRun {
  /** Typed fields the model reported (not the "not detected" ones), by category. */
  fields: Map<string, ReportedField>;
  seconds: number;
  pages: number;
}

/** Runs a document model on a file the way the detect stage does, without HTTP or a database. */
export async function runModel(model: Model, templateType: TemplateType, sourcePath: string, kind: FileKind, pages = [1]): Promise<ModelRun> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'bench-accuracy-run-'));
  const input: ModelInput = {
    tenantId: 0,
    taskId: 0,
    templateType,
    sourcePath,
    kind,
    mimeType: null,
    pages,
    useHigherQuality: false,
    templateFields: null,
    workDir,
    saveOutput: async () => '',
  };
  try {
    const started = process.hrtime.bigint();
    const result = await model(input);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const fields = new Map<string, ReportedField>();
    if (result.kind === 'document') {
      for (const chunk of result.chunks) {
        for (const entity of chunk.entities as Array<Record<string, unknown>>) {
          if (entity.type !== 'Field' || entity.notDetected) continue;
          const [value] = entity.keyValues as Array<{ content: string; contentNormalized: string | null }>;
          if (!value || fields.has(entity.category as string)) continue;
          fields.set(entity.category as string, { content: value.content, contentNormalized: value.contentNormalized, confidence: entity.confidence as number });
        }
      }
    }
    return { fields, seconds, pages: pages.length };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
