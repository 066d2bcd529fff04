import env from '#start/env'
import type { InferDriveDisks } from '@adonisjs/drive/types'
import { defineConfig, services } from '@adonisjs/drive'
import { s3ConfigOf, s3DriverOptionsOf, storageRootOf } from '#services/storage_config'

/**
 * File storage (docs/security.md, "Storage"). The local disk unless the S3 variables are
 * set; some set and not others stops the boot with a message naming the missing ones. Files are served
 * by the app's own /storage route (app/controllers/files/storage_files_controller.ts),
 * never by drive's file server, so private files get their access check.
 */
const storageEnv = {
  STORAGE_PATH: env.get('STORAGE_PATH'),
  S3_ENDPOINT: env.get('S3_ENDPOINT'),
  S3_ACCESS_KEY: env.get('S3_ACCESS_KEY'),
  S3_SECRET_KEY: env.get('S3_SECRET_KEY'),
  S3_BUCKET: env.get('S3_BUCKET'),
  S3_REGION: env.get('S3_REGION'),
}
const s3 = s3ConfigOf(storageEnv)

const driveConfig = defineConfig({
  default: s3 ? 's3' : 'fs',
  services: {
    fs: services.fs({
      location: storageRootOf(storageEnv),
      serveFiles: false,
      visibility: 'public',
    }),
    // Only declared when configured: resolving it loads the AWS SDK.
    ...(s3 ? { s3: services.s3(s3DriverOptionsOf(s3)) } : {}),
  },
})

export default driveConfig

declare module '@adonisjs/drive/types' {
  export interface DriveDisks extends InferDriveDisks<typeof driveConfig> {}
}
