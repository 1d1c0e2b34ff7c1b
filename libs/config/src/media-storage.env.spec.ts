import { EnvironmentError, validateEnv } from './validate-env';
import { MediaStorageEnv } from './media-storage.env';

const problems = (env: NodeJS.ProcessEnv): string[] => {
  try {
    validateEnv(MediaStorageEnv, env);
    return [];
  } catch (err) {
    if (err instanceof EnvironmentError) return err.problems;
    throw err;
  }
};

describe('withMediaStorage', () => {
  it('defaults to the filesystem and 1 GiB', () => {
    expect({ ...validateEnv(MediaStorageEnv, {}) }).toEqual({ MEDIA_STORAGE: 'fs', MEDIA_MAX_BYTES: 1024 ** 3, S3_FORCE_PATH_STYLE: false });
  });

  it('reads an S3 setup, empty values as unset', () => {
    const env = validateEnv(MediaStorageEnv, {
      MEDIA_STORAGE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: '',
      MEDIA_DIR: '',
    });
    expect(env).toMatchObject({ MEDIA_STORAGE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: true });
    expect(env.S3_REGION).toBeUndefined();
    expect(env.MEDIA_DIR).toBeUndefined();
  });

  it('names each wrong variable', () => {
    expect(problems({ MEDIA_STORAGE: 's3', MEDIA_MAX_BYTES: String(6 * 1024 ** 3), S3_ENDPOINT: 'minio:9000', S3_ACCESS_KEY_ID: 'id' }).sort()).toEqual([
      'MEDIA_MAX_BYTES: must not be greater than 5368709120',
      'S3_BUCKET: required when MEDIA_STORAGE is s3',
      'S3_ENDPOINT: must be an http(s) URL',
      'S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID',
    ]);
    expect(problems({ MEDIA_STORAGE: 'disk' })).toEqual(['MEDIA_STORAGE: must be one of the following values: fs, s3']);
  });
});
