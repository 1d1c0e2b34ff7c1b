import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';
import type { EnvClass } from './env-class';
import { EmptyAsUnset, ToBool, ToInt } from './env-types';

export const MEDIA_STORAGE_KINDS = ['fs', 's3'] as const;
export type MediaStorageKind = (typeof MEDIA_STORAGE_KINDS)[number];

const GIB = 1024 * 1024 * 1024;

/**
 * The media storage block: where media bytes are kept (libs/blob-store). `fs` is a directory
 * (all-in-one: under DATA_DIR; distributed: a volume every replica mounts); `s3` an
 * S3-compatible bucket (AWS S3, MinIO, Ceph, R2, GCS's XML API).
 */
export function withMediaStorage<B extends EnvClass>(Base: B) {
  class MediaStorageEnv extends Base {
    /** Where media bytes go: `fs`, files under MEDIA_DIR; `s3`, an S3-compatible bucket. */
    @IsIn(MEDIA_STORAGE_KINDS) MEDIA_STORAGE: MediaStorageKind = 'fs';

    /** `fs`: the directory of the blobs; unset: `<DATA_DIR>/media`. */
    @EmptyAsUnset() @IsOptional() @IsString() MEDIA_DIR?: string;

    /** The largest media an upload or a fetch may store (413 above it). S3's CopyObject, which a put ends with, takes up to 5 GiB. */
    @ToInt() @IsInt() @Min(1) @Max(5 * GIB) MEDIA_MAX_BYTES = GIB;

    /** `s3`: the bucket (it must exist). */
    @EmptyAsUnset() @ValidateIf((env: MediaStorageEnv) => env.MEDIA_STORAGE === 's3') @IsNotEmpty({ message: 'required when MEDIA_STORAGE is s3' }) S3_BUCKET?: string;

    /** `s3`: the bucket's region; unset: `us-east-1`. */
    @EmptyAsUnset() @IsOptional() @IsString() S3_REGION?: string;

    /** Another S3-compatible service than AWS (MinIO, R2 …): its URL. Unset: AWS's endpoint for S3_REGION. */
    @EmptyAsUnset() @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' }) S3_ENDPOINT?: string;

    /** `true`: `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (MinIO and most self-hosted servers). */
    @ToBool() @IsBoolean() S3_FORCE_PATH_STYLE = false;

    /** Static credentials (each may be a `_FILE`); both or neither. Neither: the SDK's own chain (AWS_* variables, an IAM role, a web identity). */
    @EmptyAsUnset()
    @ValidateIf((env: MediaStorageEnv) => env.S3_SECRET_ACCESS_KEY !== undefined)
    @IsNotEmpty({ message: 'required with S3_SECRET_ACCESS_KEY' })
    S3_ACCESS_KEY_ID?: string;
    /** The secret of S3_ACCESS_KEY_ID (it may be a `_FILE`). */
    @EmptyAsUnset()
    @ValidateIf((env: MediaStorageEnv) => env.S3_ACCESS_KEY_ID !== undefined)
    @IsNotEmpty({ message: 'required with S3_ACCESS_KEY_ID' })
    S3_SECRET_ACCESS_KEY?: string;
  }
  return MediaStorageEnv;
}

/** The media storage variables alone (a tool, a test). */
export class MediaStorageEnv extends withMediaStorage(class {}) {}
