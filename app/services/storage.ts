import { readFile } from 'node:fs/promises'
import { join, normalize } from 'node:path'
import type { Readable } from 'node:stream'
import drive from '@adonisjs/drive/services/main'
import router from '@adonisjs/core/services/router'
import type { Disk } from '@adonisjs/drive'
import { FSDriver } from 'flydrive/drivers/fs'
import env from '#start/env'
import { appUrl } from '#config/app'
import { storageRootOf } from '#services/storage_config'

/**
 * The one storage service every caller goes through: file inputs, profile photos, plugin
 * runners (their context's `storage`). It sits on @adonisjs/drive: the local disk by default,
 * an S3-compatible bucket when S3_* are set (config/drive.ts).
 *
 * Every file is reached through the app at /storage/{key}, whatever the disk:
 * - keys under `private/` are private: served only with a valid, unexpired signature made
 *   with APP_KEY (signedFileUrl) or to a signed-in member of the workspace named in the key
 *   (`private/workspaces/{workspaceId}/...`). Nothing serves them otherwise (docs/security.md,
 *   "Storage").
 * - any other key is public, as it always was.
 * On S3 the app answers with a redirect to a presigned GET URL that expires quickly, so the
 * bucket itself stays private.
 */

export type FileVisibility = 'public' | 'private'

export const STORAGE_ROUTE = '/storage/*'
const SIGNATURE_PURPOSE = 'storage'

/** How long a signed link to a private file works (results page, CSV export, API). */
export const PRIVATE_LINK_TTL = '1h'
/** How long the presigned S3 URL behind a private file's redirect works. */
export const PRIVATE_PRESIGNED_TTL = '60s'
/** Public files on S3: the redirect may be cached, the presigned URL outlives the cache. */
export const PUBLIC_PRESIGNED_TTL = '1h'
export const PUBLIC_REDIRECT_MAX_AGE_SECONDS = 300

let diskInUse: Disk | undefined

/** The disk files go to: drive's default one, unless a test put another in its place. */
export function storageDisk(): Disk {
  return diskInUse ?? drive.use()
}

/**
 * Runs the same service on another disk (the suite's own S3 server); `undefined` puts the
 * configured one back.
 */
export function useStorageDisk(disk: Disk | undefined) {
  diskInUse = disk
}

export function storageRoot() {
  return storageRootOf({ STORAGE_PATH: env.get('STORAGE_PATH') })
}

export function safeKey(key: string) {
  const clean = normalize(key).replace(/^([/\\])+/, '')
  if (clean === '.' || clean.split(/[/\\]/).includes('..')) throw new Error('Invalid storage key')
  return clean
}

/** Where a key lives on the local disk (the default driver). */
export function pathFor(key: string) {
  return join(storageRoot(), safeKey(key))
}

export function visibilityOf(key: string): FileVisibility {
  return safeKey(key).split(/[/\\]/)[0] === 'private' ? 'private' : 'public'
}

/** The key of a private file of a workspace: only its members read it without a signature. */
export function privateKey(workspaceId: string, ...parts: string[]) {
  return safeKey(['private', 'workspaces', workspaceId, ...parts].join('/'))
}

/** The workspace whose members may read a private key (null for other keys). */
export function workspaceOfKey(key: string): string | null {
  const [root, scope, workspaceId] = safeKey(key).split('/')
  return root === 'private' && scope === 'workspaces' && workspaceId ? workspaceId : null
}

/** The app path of a key (stable: what is stored in answers and variables). */
/**
 * The storage key behind a URL of this app's stored files (`{APP_URL}/storage/...`, or the
 * path alone; a signed link's query is ignored); null for any other URL.
 */
export function storedKeyOf(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url, appUrl)
  } catch {
    return null
  }
  if (parsed.origin !== new URL(appUrl).origin || !parsed.pathname.startsWith('/storage/')) {
    return null
  }
  try {
    const key = parsed.pathname
      .slice('/storage/'.length)
      .split('/')
      .map(decodeURIComponent)
      .join('/')
    return safeKey(key)
  } catch {
    return null
  }
}

export function storagePath(key: string) {
  return `/storage/${safeKey(key).split('/').map(encodeURIComponent).join('/')}`
}

/** A file name for a key: letters, digits, dot, dash and underscore. */
export function safeFileName(name: string | undefined, fallback = 'file') {
  return (name || fallback).replace(/[^\w.-]+/g, '_').slice(-100) || fallback
}

/**
 * Stores a file and returns its app path (/storage/...). The key decides the visibility:
 * `private/...` (see privateKey) is private, anything else public.
 */
export async function putFile(
  key: string,
  content: Buffer | Uint8Array | { fromPath: string },
  options: { contentType?: string } = {}
) {
  const clean = safeKey(key)
  const disk = storageDisk()
  const write = { contentType: options.contentType, visibility: visibilityOf(clean) }
  // Whole files (a few MB at most, the upload limits): S3 needs a known length anyway.
  const bytes = content instanceof Uint8Array ? content : await readFile(content.fromPath)
  await disk.put(clean, bytes, write)
  return storagePath(clean)
}

export async function readStoredFile(key: string): Promise<Buffer> {
  return Buffer.from(await storageDisk().getBytes(safeKey(key)))
}

export async function removeFile(key: string) {
  await storageDisk().delete(safeKey(key))
}

/**
 * A link to a file that works without a session until it expires: the key's path signed
 * with APP_KEY (AdonisJS signed URLs). `expiresIn` is a duration ('1h', '30s') or ms.
 */
export function signedFileUrl(key: string, expiresIn: string | number = PRIVATE_LINK_TTL) {
  return router.makeSignedUrl(
    STORAGE_ROUTE,
    { '*': safeKey(key).split('/').map(encodeURIComponent) },
    {
      expiresIn,
      purpose: SIGNATURE_PURPOSE,
      prefixUrl: appUrl,
      disableRouteLookup: true,
    }
  )
}

export { SIGNATURE_PURPOSE as STORAGE_SIGNATURE_PURPOSE }

const escapedAppUrl = appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const PRIVATE_LINK = new RegExp(
  `${escapedAppUrl}/storage/(private/[A-Za-z0-9._~%/-]+)(\\?signature=[A-Za-z0-9._~%-]*)?`,
  'g'
)

/**
 * The text with every link to a private file of this app replaced by a fresh signed one,
 * for members reading results (page, CSV export, API) outside a session on this host.
 */
export function withSignedFileLinks(text: string, expiresIn: string | number = PRIVATE_LINK_TTL) {
  if (!text.includes('/storage/private/')) return text
  return text.replace(PRIVATE_LINK, (link, path: string) => {
    try {
      return signedFileUrl(decodeURIComponent(path), expiresIn)
    } catch {
      return link
    }
  })
}

/** Only these types render in the browser; anything else downloads (no stored HTML or SVG runs). */
const INLINE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
}

export function servedTypeOf(key: string) {
  const extension = key.split('.').pop()?.toLowerCase() ?? ''
  const inline = INLINE_TYPES[extension]
  return inline
    ? { contentType: inline, disposition: undefined }
    : { contentType: 'application/octet-stream', disposition: 'attachment' }
}

export type ServedFile =
  | { kind: 'redirect'; url: string; maxAgeSeconds: number }
  | { kind: 'stream'; stream: Readable; length: number; contentType: string; disposition?: string }
  | { kind: 'missing' }

/**
 * How to answer a request for a key the caller may read: a stream from the local disk, or a
 * redirect to a presigned URL of the bucket (short-lived for private files). Bytes of a
 * bucket never flow through the app.
 */
export async function serveFile(key: string): Promise<ServedFile> {
  const clean = safeKey(key)
  const disk = storageDisk()
  const type = servedTypeOf(clean)
  if (!(disk.driver instanceof FSDriver)) {
    const isPrivate = visibilityOf(clean) === 'private'
    const url = await disk.getSignedUrl(clean, {
      expiresIn: isPrivate ? PRIVATE_PRESIGNED_TTL : PUBLIC_PRESIGNED_TTL,
      contentType: type.contentType,
      contentDisposition: type.disposition,
    })
    return { kind: 'redirect', url, maxAgeSeconds: isPrivate ? 0 : PUBLIC_REDIRECT_MAX_AGE_SECONDS }
  }
  try {
    const meta = await disk.getMetaData(clean)
    return {
      kind: 'stream',
      stream: await disk.getStream(clean),
      length: meta.contentLength,
      ...type,
    }
  } catch {
    return { kind: 'missing' }
  }
}
