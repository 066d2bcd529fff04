import { createReadStream, type ReadStream, type Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export type Encoding = 'br' | 'gzip'

/** Below this a compressed body saves less than its headers and the work cost. */
export const MIN_COMPRESSED_BYTES = 1024

/** Text types worth compressing; images, fonts, audio and archives are compressed already. */
const COMPRESSIBLE =
  /^\s*(text\/|image\/svg\+xml|application\/(json|javascript|x-javascript|ecmascript|xml|xhtml\+xml|manifest\+json|ld\+json|problem\+json|vnd\.api\+json|wasm))/i

export function compressibleType(contentType: string) {
  // The chat's event stream is sent in pieces, each to be read as it arrives.
  return COMPRESSIBLE.test(contentType) && !/^\s*text\/event-stream/i.test(contentType)
}

/**
 * A body compressed for one answer. Brotli at quality 4: on answers made per request it
 * compresses about as well as gzip -9 in a fraction of the time (the build compresses
 * static files at the highest quality instead). Null when not worth it.
 */
export function compressBody(body: Buffer, encoding: Encoding): Buffer | null {
  if (body.length < MIN_COMPRESSED_BYTES) return null
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 4,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gzipSync(body, { level: 6 })
  return compressed.length < body.length ? compressed : null
}

/**
 * The encoding to answer with among `available`, brotli first: browsers list gzip first
 * in Accept-Encoding with the same weight, though brotli makes smaller text. Null when the
 * client accepts none of them (or refuses them with q=0).
 */
export function preferredEncoding(
  acceptEncoding: string | undefined | null,
  available: readonly Encoding[] = ['br', 'gzip']
): Encoding | null {
  if (!acceptEncoding) return null
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (!name) continue
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0)
  }
  const weight = (encoding: string) => weights.get(encoding) ?? weights.get('*') ?? 0
  const best = available
    .filter((encoding) => weight(encoding) > 0)
    .sort((a, b) => weight(b) - weight(a))
  return best[0] ?? null
}

/** Hashed build assets: their name changes with their content, so they never go stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' }

/** Build files do not change while the server runs: each copy is looked up once. */
const copies = new Map<string, Promise<Stats | null>>()

function statOnce(path: string) {
  let found = copies.get(path)
  if (!found) {
    found = stat(path).then(
      (stats) => (stats.isFile() ? stats : null),
      () => null
    )
    copies.set(path, found)
  }
  return found
}

export interface PrecompressedAsset {
  encoding: Encoding
  contentType: string
  size: number
  etag: string
  open(): ReadStream
}

/**
 * The brotli or gzip copy the build wrote next to a file of public/assets (vite.config.ts),
 * in the encoding the client prefers among those present; null for any other file.
 */
export async function precompressedAsset(
  publicDir: string,
  pathname: string,
  acceptEncoding: string | undefined
): Promise<PrecompressedAsset | null> {
  if (!pathname.startsWith('/assets/')) return null
  let relative: string
  try {
    relative = decodeURIComponent(pathname.slice(1))
  } catch {
    return null
  }
  if (relative.includes('\0') || relative.split(/[\\/]/).includes('..')) return null
  const contentType = ASSET_TYPES[extname(relative).toLowerCase()]
  if (!contentType) return null
  const file = join(publicDir, relative)
  const present: Encoding[] = []
  for (const encoding of ['br', 'gzip'] as const) {
    if (await statOnce(file + SUFFIX[encoding])) present.push(encoding)
  }
  if (!present.length) return null
  const chosen = preferredEncoding(acceptEncoding, present)
  if (!chosen) return null
  const path = file + SUFFIX[chosen]
  const stats = (await statOnce(path))!
  return {
    encoding: chosen,
    contentType,
    size: stats.size,
    etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}-${chosen}"`,
    open: () => createReadStream(path),
  }
}
