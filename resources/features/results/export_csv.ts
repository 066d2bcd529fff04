import i18n, { translateServerMessage } from '~/lib/i18n'
import { HttpError, readXsrfToken } from '~/lib/http'
import type { ResultsSelection } from '#shared/results/types'

export interface ExportProgress {
  /** Data rows received so far (the header excluded). */
  rows: number
  /** Rows the server announced (X-Total-Count), when known. */
  total: number | null
  bytes: number
}

/**
 * Counts the records of CSV text arriving in chunks: line breaks inside quoted fields do
 * not end a record, and a quote may be split from its pair by a chunk boundary.
 */
export function createRecordCounter() {
  let quoted = false
  let records = 0
  return {
    push(text: string) {
      for (let index = 0; index < text.length; index++) {
        const char = text.charCodeAt(index)
        if (char === 34) quoted = !quoted
        else if (char === 10 && !quoted) records++
      }
    },
    get records() {
      return records
    },
  }
}

function fileNameOf(disposition: string | null) {
  const match = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null
  return match?.[1] ?? 'results.csv'
}

async function errorOf(response: Response) {
  let data: any = null
  try {
    data = await response.json()
  } catch {}
  const message =
    typeof data?.message === 'string' && data.message
      ? translateServerMessage(data.message)
      : i18n.t('common.somethingWentWrong')
  const description =
    typeof data?.description === 'string' ? translateServerMessage(data.description) : undefined
  return new HttpError(message, response.status, description)
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/**
 * Downloads the CSV export: the response is read as a stream, counting rows as they
 * arrive (for the progress bar), then handed to the browser as a file.
 */
export async function downloadResultsCsv(
  url: string,
  body: ResultsSelection & { columns?: string[] },
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal
): Promise<ExportProgress> {
  const headers: Record<string, string> = {
    'Accept': 'text/csv, application/json',
    'Content-Type': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  }
  const token = readXsrfToken()
  if (token) headers['X-XSRF-TOKEN'] = token
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  })
  if (!response.ok || !response.body) throw await errorOf(response)
  const announced = Number(response.headers.get('X-Total-Count'))
  const progress: ExportProgress = {
    rows: 0,
    total: Number.isFinite(announced) && announced >= 0 ? announced : null,
    bytes: 0,
  }
  onProgress({ ...progress })
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  const counter = createRecordCounter()
  const parts: BlobPart[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    counter.push(decoder.decode(value, { stream: true }))
    progress.bytes += value.byteLength
    progress.rows = Math.max(0, counter.records - 1)
    onProgress({ ...progress })
  }
  saveBlob(
    new Blob(parts, { type: 'text/csv;charset=utf-8' }),
    fileNameOf(response.headers.get('Content-Disposition'))
  )
  return progress
}
