import type { WorkflowRunner } from '#sdk/runner'
import { keyValueToRecord } from '#sdk/plugin'
import type plugin from './index.js'

function parseBody(text: string): unknown {
  if (/^\s*[[{"]|^\s*(true|false|null|-?\d)/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {}
  }
  return text
}

/**
 * Sets the answer of the webhook call that started the run. An empty body answers with
 * the node's input. The node passes its input on, so the run can go on after answering.
 */
export const run: WorkflowRunner<typeof plugin> = ({ options, workflow, logger }) => {
  const code = Number(options.statusCode ?? 200)
  const statusCode = Number.isInteger(code) && code >= 100 && code <= 599 ? code : 200
  const text = options.body ?? ''
  const body = text.trim() === '' ? (workflow?.input ?? null) : parseBody(text)
  const headers = keyValueToRecord(options.headers)
  if (workflow && workflow.trigger !== 'webhook') {
    logger.info('Respond to webhook: the run was not started by a webhook call')
  }
  return {
    respond: Object.keys(headers).length > 0 ? { statusCode, headers, body } : { statusCode, body },
  }
}

export { fromN8n } from './n8n.js'
