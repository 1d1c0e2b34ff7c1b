import { EnvironmentError, validateEnv } from './validate-env';
import { MediaToolsEnv } from './media-tools.env';

describe('withMediaTools', () => {
  it('leaves both unset by default and when empty (PATH, then the npm package, decide)', () => {
    expect({ ...validateEnv(MediaToolsEnv, {}) }).toEqual({});
    expect({ ...validateEnv(MediaToolsEnv, { FFMPEG_PATH: '', FFPROBE_PATH: '' }) }).toEqual({});
  });

  it('reads the binaries named', () => {
    expect(validateEnv(MediaToolsEnv, { FFMPEG_PATH: '/usr/bin/ffmpeg', FFPROBE_PATH: '/opt/ffmpeg/bin/ffprobe' })).toMatchObject({
      FFMPEG_PATH: '/usr/bin/ffmpeg',
      FFPROBE_PATH: '/opt/ffmpeg/bin/ffprobe',
    });
  });

  it('refuses a relative path, naming the variable', () => {
    let problems: string[] = [];
    try {
      validateEnv(MediaToolsEnv, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: './bin/ffprobe' });
    } catch (err) {
      if (!(err instanceof EnvironmentError)) throw err;
      problems = err.problems;
    }
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['FFMPEG_PATH', 'FFPROBE_PATH']);
    expect(problems[0]).toContain('must be an absolute path');
  });
});
