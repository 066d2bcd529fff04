import { mkdir, writeFile, copyFile, rm } from 'node:fs/promises'
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path'
import env from '#start/env'

/**
 * Local-disk file storage (the embedded default). Files are served by the app under
 * /storage/{key}. Keys never contain "..", so a key cannot escape the storage root.
 */
export function storageRoot() {
  const configured = env.get('STORAGE_PATH') || 'storage'
  return isAbsolute(configured) ? configured : resolve(process.cwd(), configured)
}

export function safeKey(key: string) {
  const clean = normalize(key).replace(/^([/\\])+/, '')
  if (clean.split(/[/\\]/).includes('..')) throw new Error('Invalid storage key')
  return clean
}

export function pathFor(key: string) {
  return join(storageRoot(), safeKey(key))
}

export function publicUrl(key: string) {
  return `/storage/${safeKey(key)}`
}

export async function putFile(key: string, content: Buffer | { fromPath: string }) {
  const target = pathFor(key)
  await mkdir(dirname(target), { recursive: true })
  if (Buffer.isBuffer(content)) await writeFile(target, content)
  else await copyFile(content.fromPath, target)
  return publicUrl(key)
}

export async function removeFile(key: string) {
  await rm(pathFor(key), { force: true })
}
