import { MediaToolRunError } from './run-media-tool';

/**
 * An analysis could not give an answer, for a reason its user can act on (the media has no
 * video stream, ffmpeg could not decode it, it ran past the deadline). The message is theirs
 * to read: it names no path of this machine.
 */
export class MediaAnalysisError extends Error {
  override name = 'MediaAnalysisError';
}

/** A failure of the run itself (timeout, output cap, ffmpeg missing) as a MediaAnalysisError. */
export function runFailure(err: unknown, what: string): Error {
  if (!(err instanceof MediaToolRunError)) return err as Error;
  switch (err.failure) {
    case 'timeout':
      return new MediaAnalysisError(`${what} ran past its time limit and was stopped`);
    case 'output-too-large':
      return new MediaAnalysisError(`${what} wrote more statistics than it may`);
    default:
      return new MediaAnalysisError(`${what} could not run: ffmpeg could not be started`);
  }
}
