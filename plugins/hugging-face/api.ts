import { HUGGING_FACE_DEFAULT_BASE_URL } from './index.js'

/** Where the inference calls and the account check go. Server only. */

export function inferenceBaseUrl(credentials: { baseUrl?: string }) {
  return (credentials.baseUrl?.trim() || HUGGING_FACE_DEFAULT_BASE_URL).replace(/\/+$/, '')
}

/**
 * The hosted inference API and the hub's account API live on different hosts: with the
 * default base URL the token is checked on the hub; a custom server (a dedicated endpoint
 * proxy, our stand-in) is asked at its own /api/whoami-v2.
 */
export function whoamiUrl(credentials: { baseUrl?: string }) {
  const base = inferenceBaseUrl(credentials)
  return base === HUGGING_FACE_DEFAULT_BASE_URL
    ? 'https://huggingface.co/api/whoami-v2'
    : `${base}/api/whoami-v2`
}

/** Model ids are paths ('org/name'): each segment is encoded, the slashes kept. */
export function modelUrl(credentials: { baseUrl?: string }, modelId: string) {
  const path = modelId
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/')
  return `${inferenceBaseUrl(credentials)}/models/${path}`
}
