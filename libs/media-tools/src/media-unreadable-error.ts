/** ffmpeg ran and refused the input (exit status not 0): bytes it cannot decode. Running it again would fail alike. */
export class MediaUnreadableError extends Error {
  override name = 'MediaUnreadableError';
  constructor(stderr: string) {
    super(`ffmpeg could not read it: ${stderr.trim().split('\n').pop()?.slice(0, 300) || 'no reason given'}`);
  }
}
