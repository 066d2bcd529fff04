import type { CredentialsTestContext } from '#sdk/runner'
import { anthropicHeaders, anthropicUrl } from '#sdk/ai'
import { ANTHROPIC_BASE_URL } from './index.js'

/**
 * Checks an Anthropic key by listing the models: authenticated, and free of charge (a
 * message would cost tokens). Server only.
 */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const apiKey = String(credentials.apiKey ?? '').trim()
  if (!apiKey) return { ok: false, message: 'API key missing' }
  const endpoint = { apiKey, baseUrl: String(credentials.baseUrl || ANTHROPIC_BASE_URL) }
  const response = await http.request(anthropicUrl(endpoint, 'models'), {
    headers: anthropicHeaders(endpoint, false),
    signal,
  })
  const body = (await response.json().catch(() => null)) as {
    data?: unknown[]
    error?: { message?: string }
  } | null
  if (response.ok) {
    const count = Array.isArray(body?.data) ? body!.data!.length : 0
    return { ok: true, message: `Connected: ${count} model${count === 1 ? '' : 's'} available.` }
  }
  return {
    ok: false,
    message:
      body?.error?.message ??
      `The server answered ${response.status} ${response.statusText}`.trim(),
  }
}
