import { IsOptional, Matches } from 'class-validator';
import type { EnvClass } from './env-class';
import { EmptyAsUnset } from './env-types';

// Absolute: a relative path would name another binary depending on where the app was started.
const ABSOLUTE_PATH = /^\/./;
const absolute = { message: 'must be an absolute path to the binary' };

/**
 * The media tools block: which ffmpeg and ffprobe an app that runs them uses (libs/media-tools).
 * Unset: the one on the system PATH, else the one inside the npm package. A path set here must
 * be an executable file; the boot check says so when it is not, and which filters it lacks.
 */
export function withMediaTools<B extends EnvClass>(Base: B) {
  class MediaToolsEnv extends Base {
    /** The ffmpeg binary frames, storyboards and the video scorers run; unset: PATH's, else the npm package's. */
    @EmptyAsUnset() @IsOptional() @Matches(ABSOLUTE_PATH, absolute) FFMPEG_PATH?: string;
    /** The ffprobe binary probes run; unset: PATH's, else the npm package's. */
    @EmptyAsUnset() @IsOptional() @Matches(ABSOLUTE_PATH, absolute) FFPROBE_PATH?: string;
  }
  return MediaToolsEnv;
}

/** The media tools variables alone (a tool, a test). */
export class MediaToolsEnv extends withMediaTools(class {}) {}
