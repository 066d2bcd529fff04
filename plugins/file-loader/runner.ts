import type { WorkflowRunner } from '#sdk/runner'
import { extractText } from '#sdk/documents'
import plugin, { FILE_LOADER_DEFAULT_MAX_MB, FILE_LOADER_MAX_MB } from './index.js'

const EXTENSIONS: Record<string, string> = {
  pdf: 'document.pdf',
  docx: 'document.docx',
  txt: 'document.txt',
  md: 'document.md',
  csv: 'document.csv',
  html: 'document.html',
}

/** The file name of a URL's last path segment ('' when there is none). */
function nameOf(url: URL) {
  try {
    return decodeURIComponent(url.pathname.split('/').pop() ?? '')
  } catch {
    return ''
  }
}

/**
 * Reads the file (storage first, then HTTP, with the size cap checked before the whole body
 * is in memory) and outputs its text, its pages (PDF) or rows (CSV). Every failure fails the
 * node with the reason (the node's retry settings apply).
 */
export const run: WorkflowRunner<typeof plugin> = async ({
  options,
  http,
  storage,
  signal,
  logger,
}) => {
  const address = options.url?.trim() ?? ''
  if (!address) throw new Error('File loader: the file URL is empty')
  let url: URL
  try {
    url = new URL(address)
  } catch {
    throw new Error(`File loader: "${address}" is not a URL`)
  }
  const maxMb = Math.min(
    Math.max(Number(options.maxSizeMb) || FILE_LOADER_DEFAULT_MAX_MB, 1),
    FILE_LOADER_MAX_MB
  )
  const maxBytes = maxMb * 1024 * 1024

  let bytes: Uint8Array
  let name: string
  let mimeType: string | undefined
  const inline = url.protocol === 'data:' ? dataUrlFile(address, maxBytes, maxMb) : undefined
  const stored = inline ? undefined : await storage.read(url.href)
  if (inline) {
    ;({ bytes, name, mimeType } = inline)
  } else if (stored) {
    bytes = stored.bytes
    name = stored.name
  } else {
    const response = await http.request(url, { signal, timeoutMs: 60_000 })
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      throw new Error(
        `File loader: ${url.host} answered ${response.status} ${response.statusText}`.trim()
      )
    }
    const length = Number(response.headers.get('content-length'))
    if (Number.isFinite(length) && length > maxBytes) {
      await response.body?.cancel().catch(() => {})
      throw new Error(`File loader: the file is larger than ${maxMb} MB`)
    }
    bytes = await readCapped(response, maxBytes, maxMb)
    mimeType = response.headers.get('content-type') ?? undefined
    name = dispositionName(response.headers.get('content-disposition')) || nameOf(url)
  }

  const format = options.format && options.format !== 'auto' ? options.format : undefined
  let document
  try {
    document = await extractText(bytes, {
      // A chosen format wins over what the file or server says.
      filename: format ? EXTENSIONS[format] : name,
      mimeType: format ? undefined : mimeType,
      maxBytes,
    })
  } catch (error) {
    throw new Error(`File loader: ${(error as Error).message}`)
  }
  logger.success(`Read ${document.text.length} characters from ${name || url.host}`)
  return {
    output: {
      text: document.text,
      ...(document.pages ? { pages: document.pages } : {}),
      ...(document.rows ? { rows: document.rows } : {}),
      fileName: name,
      size: bytes.byteLength,
    },
  }
}

/**
 * A file sent inline as a data URL (`data:application/pdf;name=guide.pdf;base64,...`), as a
 * webhook caller or an earlier node may pass an upload. The size is checked before decoding.
 */
function dataUrlFile(address: string, maxBytes: number, maxMb: number) {
  const match = /^data:([^,]*),(.*)$/s.exec(address)
  if (!match) throw new Error('File loader: the data URL is malformed')
  const [type, ...parameters] = match[1].split(';')
  const base64 = parameters.includes('base64')
  const payload = match[2]
  // Base64 takes 4 characters for 3 bytes.
  const size = base64 ? Math.floor((payload.replace(/=+$/, '').length * 3) / 4) : payload.length
  if (size > maxBytes) throw new Error(`File loader: the file is larger than ${maxMb} MB`)
  const bytes = base64
    ? new Uint8Array(Buffer.from(payload, 'base64'))
    : new Uint8Array(Buffer.from(decodeURIComponent(payload), 'utf8'))
  const nameParameter = parameters.find((parameter) => parameter.startsWith('name='))
  let name = ''
  try {
    name = nameParameter ? decodeURIComponent(nameParameter.slice(5)) : ''
  } catch {}
  return { bytes, name, mimeType: type || undefined }
}

/** The body, refused as soon as it passes the cap (a server may not say its length). */
async function readCapped(response: Response, maxBytes: number, maxMb: number) {
  const reader = response.body?.getReader()
  if (!reader) return new Uint8Array(await response.arrayBuffer())
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new Error(`File loader: the file is larger than ${maxMb} MB`)
    }
    chunks.push(value)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** filename="..." (or filename*=UTF-8''...) of a Content-Disposition header. */
function dispositionName(header: string | null): string {
  if (!header) return ''
  const extended = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''))
    } catch {}
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1]?.trim() ?? ''
}
