import type { AppDeps } from '../../app-deps.js';

/** What the export services read with: the database, and what signed file links need. */
export type ExportDeps = Pick<AppDeps, 'prisma' | 'config' | 'fileUrlSecret'>;
