import { access, constants } from 'node:fs/promises';
import path from 'node:path';

/** The first executable `binary` in the directories of `searchPath` (PATH by default), or null. */
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
