import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** ffmpeg decodes and filters (frames, storyboards, the video scorers); ffprobe reads a file's streams. */
export type MediaToolName = 'ffmpeg' | 'ffprobe';

/** Where a binary was found, in the order they are tried (docs/deploy.md, "ffmpeg and ffprobe"). */
export type MediaToolSource = 'environment' | 'system' | 'npm-package';

export interface MediaTool {
  name: MediaToolName;
  path: string;
  source: MediaToolSource;
}

export interface MediaTools {
  ffmpeg: MediaTool;
  ffprobe: MediaTool;
}

/**
 * The binaries an operator named, from an app's validated environment (withMediaTools in
 * libs/config, where the variables are declared and checked once). The system's PATH is the
 * only variable looked up here.
 */
export interface MediaToolSettings {
  FFMPEG_PATH?: string;
  FFPROBE_PATH?: string;
}

/** No usable binary, or FFMPEG_PATH / FFPROBE_PATH naming one that is not there: the message says what to do. */
export class MediaToolMissingError extends Error {
  override name = 'MediaToolMissingError';
}

const ENV_VARIABLE = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' } as const satisfies Record<MediaToolName, keyof MediaToolSettings>;

// The npm packages whose platform sub-packages carry the binaries inside the registry tarball
// (no install script downloads anything). Their index throws (a string) on a platform they lack.
const NPM_PACKAGE: Record<MediaToolName, string> = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' };

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The executable `name` in the first directory of the PATH that holds one. */
export function onSystemPath(name: string, pathVariable: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function fromNpmPackage(name: MediaToolName): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { path } = require(NPM_PACKAGE[name]) as { path: string };
    // The package's postinstall only sets u+x: a binary installed by another user may not run.
    return isExecutableFile(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One tool's binary: `FFMPEG_PATH` / `FFPROBE_PATH` when set (it must be there: a typo is an
 * error, not a silent fallback); else the one on the system PATH, since an operator installed
 * it on purpose and a distribution's build (Debian's ffmpeg 5.1) has every filter the video
 * scorers use and its security fixes; else the one shipped in the npm package, so that
 * `npm install && npm start` works with nothing else installed.
 */
export function resolveMediaTool(name: MediaToolName, settings: MediaToolSettings, searchPath: string | undefined = process.env.PATH): MediaTool {
  const variable = ENV_VARIABLE[name];
  const configured = settings[variable];
  if (configured) {
    if (!isExecutableFile(configured)) throw new MediaToolMissingError(`${variable} names ${configured}, which is not an executable file`);
    return { name, path: configured, source: 'environment' };
  }
  const system = onSystemPath(name, searchPath);
  if (system) return { name, path: system, source: 'system' };
  const packaged = fromNpmPackage(name);
  if (packaged) return { name, path: packaged, source: 'npm-package' };
  throw new MediaToolMissingError(
    `${name} was not found: not on PATH, and the npm package ${NPM_PACKAGE[name]} has no binary for ${process.platform}-${process.arch}. ` +
      `Install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set ${variable}`,
  );
}

/** Both tools, each resolved on its own (an ffprobe from the npm package beside a system ffmpeg is fine). */
export function resolveMediaTools(settings: MediaToolSettings, searchPath: string | undefined = process.env.PATH): MediaTools {
  return { ffmpeg: resolveMediaTool('ffmpeg', settings, searchPath), ffprobe: resolveMediaTool('ffprobe', settings, searchPath) };
}

/** How a log line names a tool: its path and where it came from. */
export function describeMediaTool(tool: MediaTool): string {
  const from = { environment: ENV_VARIABLE[tool.name], system: 'the system PATH', 'npm-package': `the npm package ${NPM_PACKAGE[tool.name]}` }[tool.source];
  return `${tool.path} (from ${from})`;
}
