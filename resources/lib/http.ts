import i18n, { translateServerMessage } from '~/lib/i18n_core'

/**
 * JSON calls of the app's own pages: the session cookie plus the XSRF header that
 * @adonisjs/shield expects (its XSRF-TOKEN cookie, URI-decoded).
 *
 * A failed call throws HttpError, whose `message` and `description` are ready to show: the
 * server's English messages are translated into the user's language (translateServerMessage).
 */
export class HttpError extends Error {
  status: number
  description?: string
  errors?: unknown

  constructor(message: string, status: number, description?: string, errors?: unknown) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.description = description
    this.errors = errors
  }
}

/** What to show under a failed call's toast title: the server's description, or the message. */
export function errorDescription(error: unknown) {
  return (error as { description?: string }).description ?? (error as Error).message
}

export function readXsrfToken(): string | null {
  if (typeof document === 'undefined') return null
  const match = document.cookie.split('; ').find((row) => row.startsWith('XSRF-TOKEN='))
  if (!match) return null
  try {
    return decodeURIComponent(match.slice('XSRF-TOKEN='.length))
  } catch {
    return null
  }
}

export interface JsonFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  signal?: AbortSignal
  /** lets the request outlive the page (sent while the tab closes) */
  keepalive?: boolean
}

export async function jsonFetch<T = unknown>(
  url: string,
  options: JsonFetchOptions = {}
): Promise<T> {
  const headers: Record<string, string> = {
    'Accept': 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  }
  const token = readXsrfToken()
  if (token) headers['X-XSRF-TOKEN'] = token
  let body: BodyInit | undefined
  if (typeof FormData !== 'undefined' && options.body instanceof FormData) {
    // Uploads: the browser writes the multipart Content-Type with its boundary.
    body = options.body
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const response = await fetch(url, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
    keepalive: options.keepalive,
  })
  const text = await response.text()
  let data: any = null
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = null
    }
  }
  if (!response.ok) {
    const message =
      data && typeof data.message === 'string' && data.message
        ? translateServerMessage(data.message)
        : i18n.t('common.somethingWentWrong')
    const description =
      data && typeof data.description === 'string' && data.description
        ? translateServerMessage(data.description)
        : undefined
    throw new HttpError(message, response.status, description, data?.errors)
  }
  return data as T
}
