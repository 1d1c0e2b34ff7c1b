import { S3Client } from '@aws-sdk/client-s3';
import type { MediaStorageKind } from '@cinetrace/config';
import { join } from 'node:path';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore } from './s3-blob-store';

/** The variables of withMediaStorage (libs/config), and DATA_DIR where the app has one. */
export interface MediaStorageSettings {
  MEDIA_STORAGE: MediaStorageKind;
  MEDIA_DIR?: string;
  DATA_DIR?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: boolean;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
}

/** The S3 client of an `s3` media storage; credentials from the settings, else the SDK's default chain. */
export function s3ClientFrom(settings: MediaStorageSettings): S3Client {
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = settings;
  return new S3Client({
    region: settings.S3_REGION ?? 'us-east-1',
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    // A dependency blip surfaces within seconds (the caller answers 503), not after the SDK's long default backoff.
    maxAttempts: 3,
    // Another service than AWS: integrity checksums only where the API requires them. The SDK's
    // default since 2025 (a CRC32 on every upload, each part's echoed back for the multipart
    // completion) is not implemented by every S3-compatible server: S3Mock answers UploadPart
    // without the part's checksum and then refuses the completion; older MinIO, R2 and GCS had
    // the same kind of gaps. The blob's SHA-256 is computed here anyway.
    ...(settings.S3_ENDPOINT ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
  });
}

/** The blob store the settings describe. */
export function blobStoreFrom(settings: MediaStorageSettings): BlobStore {
  if (settings.MEDIA_STORAGE === 's3') {
    if (!settings.S3_BUCKET) throw new Error('S3_BUCKET: required when MEDIA_STORAGE is s3');
    return new S3BlobStore({ client: s3ClientFrom(settings), bucket: settings.S3_BUCKET });
  }
  return new FsBlobStore(settings.MEDIA_DIR ?? join(settings.DATA_DIR ?? './data', 'media'));
}
