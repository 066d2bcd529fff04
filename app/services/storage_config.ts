import { isAbsolute, resolve } from 'node:path'

/**
 * Where files go (docs/security.md, "Storage"): the local disk under STORAGE_PATH by default,
 * an S3-compatible bucket when S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY are all set.
 * Kept apart from app/services/storage.ts so config/drive.ts can read it at boot.
 */

export const S3_MISCONFIGURED_MESSAGE =
  'S3 not properly configured. Missing one of those variables: S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY'

export class StorageConfigError extends Error {}

export interface S3StorageConfig {
  endpoint: string
  accessKeyId: string
  secretAccessKey: string
  bucket: string
  region: string
}

export interface StorageEnv {
  STORAGE_PATH?: string
  S3_ENDPOINT?: string
  S3_ACCESS_KEY?: string
  S3_SECRET_KEY?: string
  S3_BUCKET?: string
  S3_REGION?: string
}

export const DEFAULT_S3_BUCKET = 'flowcraft'
export const DEFAULT_S3_REGION = 'us-east-1'

export function storageRootOf(values: StorageEnv, cwd = process.cwd()) {
  const configured = values.STORAGE_PATH || 'storage'
  return isAbsolute(configured) ? configured : resolve(cwd, configured)
}

/**
 * The S3 settings, or null for the local disk. Some of the three required variables set
 * and not the others is a mistake the operator must hear about (the process stops at boot)
 * rather than files silently landing on a disk that the next deploy wipes.
 */
export function s3ConfigOf(values: StorageEnv): S3StorageConfig | null {
  const endpoint = values.S3_ENDPOINT?.trim()
  const accessKeyId = values.S3_ACCESS_KEY?.trim()
  const secretAccessKey = values.S3_SECRET_KEY?.trim()
  const set = [endpoint, accessKeyId, secretAccessKey].filter(Boolean).length
  if (set === 0) return null
  if (set < 3) throw new StorageConfigError(S3_MISCONFIGURED_MESSAGE)
  return {
    // A bare host ("s3.example.com") means HTTPS, as the S3 clients assume.
    endpoint: /^https?:\/\//i.test(endpoint!) ? endpoint! : `https://${endpoint}`,
    accessKeyId: accessKeyId!,
    secretAccessKey: secretAccessKey!,
    bucket: values.S3_BUCKET?.trim() || DEFAULT_S3_BUCKET,
    region: values.S3_REGION?.trim() || DEFAULT_S3_REGION,
  }
}

/**
 * The flydrive S3 driver options for a bucket. Objects are private and ACLs unused: every
 * file is read through the app (/storage/...), which redirects to a presigned URL, so the
 * bucket itself never needs to be public (and stores without ACLs, such as R2, work).
 */
export function s3DriverOptionsOf(config: S3StorageConfig) {
  return {
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    region: config.region,
    endpoint: config.endpoint,
    // Path-style addressing: S3-compatible servers (MinIO, Ceph, Garage...) rarely have
    // a wildcard DNS name per bucket.
    forcePathStyle: true,
    bucket: config.bucket,
    visibility: 'private' as const,
    supportsACL: false,
    // Newer SDKs add CRC checksums to every upload; many S3-compatible servers refuse them.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  }
}
