import type { Runner } from '#sdk/plugin'
import { toVariableValue } from '#sdk/runner'
import plugin, { DEFAULT_BASE_URL } from './index.js'

/**
 * GET {baseUrl}/v1/search?q={query} with the API key as a bearer token. A bot saves the
 * answer in a variable; a workflow node outputs it. Failures are error logs: the chat goes on,
 * a workflow node fails (its retries apply).
 */
export const run: Runner<typeof plugin> = async ({
  options,
  credentials,
  http,
  variables,
  logger,
  signal,
}) => {
  const query = options.query?.trim()
  if (!query) return void logger.error(`${plugin.name}: the query is empty`)
  const apiKey = credentials.apiKey?.trim()
  if (!apiKey) return void logger.error(`${plugin.name}: no API key`)
  const baseUrl = (credentials.baseUrl?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '')
  const response = await http.request(`${baseUrl}/v1/search?q=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${apiKey}` },
    signal,
  })
  if (!response.ok) {
    return void logger.error(`${plugin.name}: the service answered ${response.status}`, {
      body: await response.text(),
    })
  }
  const answer: unknown = await response.json()
  variables.set(options.saveResultInVariableId, toVariableValue(answer))
  logger.success(`${plugin.name}: answer received`)
  return { output: answer }
}
