import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { repoRoot } from './repo-root';

const run = promisify(execFile);

/** A real S3-protocol server (Adobe's S3Mock, run by scripts/s3mock/s3mock.sh) on a port of its own. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`: S3_ENDPOINT, with S3_FORCE_PATH_STYLE=true (S3Mock serves path-style only). */
  readonly endpoint: string;
  readonly port: number;
  /** The S3_* variables a client of its `bucket` needs (S3Mock takes any key). */
  readonly env: Record<string, string>;
  /**
   * Every key the bucket holds under `prefix`, and `upload <key>` for each multipart upload
   * still open there: what a test looks at to prove a failed put left nothing behind.
   */
  keys(prefix?: string): Promise<string[]>;
  /** Stops it and removes its objects. */
  remove(): Promise<void>;
}

async function s3mockSh(args: string[]): Promise<string> {
  const script = join(repoRoot(), 'scripts/s3mock/s3mock.sh');
  try {
    // The first start on a machine fetches S3Mock's jar with Maven.
    const { stdout } = await run('bash', [script, ...args], { timeout: 180_000 });
    return stdout.trim().split('\n').pop() ?? '';
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`scripts/s3mock/s3mock.sh ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/** Starts an S3 server holding `bucket` (empty). Takes a few seconds (a JVM); share one per suite. */
export async function startS3Server(bucket = 'cinetrace-test'): Promise<S3Server> {
  const port = await freePort();
  const endpoint = await s3mockSh(['start', '--port', String(port), '--bucket', bucket]);
  const env = { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'test', S3_SECRET_ACCESS_KEY: 'test-secret' };
  const client = new S3Client({
    endpoint,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  });
  return {
    endpoint,
    port,
    env,
    keys: async (prefix) => {
      const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
      return [...(objects.Contents ?? []).map((o) => o.Key!), ...(uploads.Uploads ?? []).map((u) => `upload ${u.Key}`)];
    },
    remove: async () => {
      client.destroy();
      await s3mockSh(['stop', '--port', String(port)]);
    },
  };
}
