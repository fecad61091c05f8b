import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { EngineMissingError } from './errors.js';
import { findOnPath } from './find-on-path.js';
import { runProcess, type RunOptions, type RunResult } from './process.js';

/**
 * Where ffmpeg and ffprobe are: the system's (on PATH) first, else the static builds that the npm
 * packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe carry for the platform, so audio
 * and video work after `npm ci` alone. The packages are looked up when needed and may be absent:
 * a machine without them runs with the system's tools, or says which one is missing.
 */
export type MediaTool = 'ffmpeg' | 'ffprobe';

const PACKAGE_OF: Record<MediaTool, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

/** What a user does about a missing tool: the words of the task's failure reason. */
export const MEDIA_TOOL_REMEDY: Record<MediaTool, string> = {
  ffmpeg: 'install ffmpeg (the ffmpeg package of the system) or the npm package @ffmpeg-installer/ffmpeg',
  ffprobe: 'install ffmpeg, which brings ffprobe (the ffmpeg package of the system), or the npm package @ffprobe-installer/ffprobe',
};

const require = createRequire(import.meta.url);

let bundledAllowed = true;
const lookups = new Map<MediaTool, Promise<string | null>>();

/**
 * Whether the npm packages' builds may be used when PATH has no ffmpeg or ffprobe
 * (BUNDLED_MEDIA_TOOLS); each thread that runs the tools is told once, at its start.
 */
export function useBundledMediaTools(allowed: boolean): void {
  if (allowed === bundledAllowed) return;
  bundledAllowed = allowed;
  lookups.clear();
}

/** The tool's executable, or null when neither PATH nor an installed package has one. Looked up once per thread. */
export function locateMediaTool(tool: MediaTool): Promise<string | null> {
  let lookup = lookups.get(tool);
  if (!lookup) {
    lookup = lookUp(tool);
    lookups.set(tool, lookup);
  }
  return lookup;
}

async function lookUp(tool: MediaTool): Promise<string | null> {
  return (await findOnPath(tool)) ?? (bundledAllowed ? bundledBuild(tool) : null);
}

/** The package's build of the tool, when the package and its platform's build are installed and the file may be run. */
async function bundledBuild(tool: MediaTool): Promise<string | null> {
  let binary: unknown;
  try {
    // The wrapper package finds its platform package's file; it throws when there is none.
    binary = (require(PACKAGE_OF[tool]) as { path?: unknown }).path;
  } catch {
    return null;
  }
  if (typeof binary !== 'string') return null;
  try {
    await access(binary, constants.X_OK);
    return binary;
  } catch {
    return null;
  }
}

/**
 * Runs ffmpeg or ffprobe wherever it was found. A missing tool is an EngineMissingError naming the
 * tool and what to install, never the path it was looked for at.
 */
export async function runMediaTool(tool: MediaTool, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const binary = await locateMediaTool(tool);
  if (!binary) throw new EngineMissingError(tool, MEDIA_TOOL_REMEDY[tool]);
  try {
    return await runProcess(binary, args, options);
  } catch (error) {
    // Removed since it was found.
    if (error instanceof EngineMissingError) throw new EngineMissingError(tool, MEDIA_TOOL_REMEDY[tool]);
    throw error;
  }
}
