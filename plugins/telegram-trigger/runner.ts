import { timingSafeEqual } from 'node:crypto'
import type { HandleEvent, OnActivate, OnDeactivate, WorkflowRunner } from '#sdk/runner'
import { callTelegram, updateTypesOf } from './api.js'
import type plugin from './index.js'

/** The header Telegram sends the secret_token of setWebhook in. */
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token'

function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Registers the workflow's event URL as the bot's webhook, for the chosen update types. A
 * bot has one webhook: when it is another active workflow's, the activation is refused
 * rather than silently stopping that workflow.
 */
export const onActivate: OnActivate = async ({
  credentials,
  options,
  eventUrl,
  secret,
  isActiveEventUrl,
  ...io
}) => {
  const current = await callTelegram<{ url?: string }>(credentials, 'getWebhookInfo', {}, io)
  if (current.url && current.url !== eventUrl && (await isActiveEventUrl(current.url))) {
    throw new Error(
      'This Telegram bot already starts another active workflow. Deactivate that workflow first, or use another bot.'
    )
  }
  await callTelegram(
    credentials,
    'setWebhook',
    { url: eventUrl, secret_token: secret, allowed_updates: updateTypesOf(options) },
    io
  )
}

/** Removes the webhook; updates then wait at Telegram for whoever registers next. */
export const onDeactivate: OnDeactivate = async ({ credentials, ...io }) => {
  await callTelegram(credentials, 'deleteWebhook', {}, io)
}

/**
 * An update from Telegram: only with the secret token of the activation (anyone may know
 * the URL). Updates of a type the options do not ask for are acknowledged without a run
 * (a 2xx, or Telegram would send them again).
 */
export const handleEvent: HandleEvent = ({ request, secret, options }) => {
  const given = request.headers[SECRET_HEADER]
  if (!given || !sameSecret(given, secret)) {
    return { respond: { status: 401, body: { error: 'Invalid secret token' } } }
  }
  const update = request.body as Record<string, unknown> | null
  if (!update || typeof update !== 'object' || typeof update.update_id !== 'number') {
    return { respond: { status: 400, body: { error: 'Not a Telegram update' } } }
  }
  const type = Object.keys(update).find((key) => key !== 'update_id')
  if (!type || !updateTypesOf(options).includes(type)) {
    return { respond: { status: 200, body: { ok: true, ignored: type ?? null } } }
  }
  // Telegram sends an update again (same update_id) until it gets a 2xx.
  return { runInput: update, deliveryId: `update:${update.update_id}` }
}

/** The update is the trigger's output ({{$input.message.text}} for the next nodes). */
export const run: WorkflowRunner<typeof plugin> = ({ workflow }) => ({
  output: workflow?.input ?? null,
})
