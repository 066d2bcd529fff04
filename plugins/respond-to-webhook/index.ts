import { definePlugin, field } from '#sdk/plugin'

/**
 * What the webhook call that started the run answers, when its trigger responds "with a
 * Respond to webhook node". The first such node of a run answers; the run goes on after it.
 */
export default definePlugin({
  id: 'respond-to-webhook',
  name: 'Respond to webhook',
  fullName: 'Respond to a webhook call',
  tags: ['webhook', 'http', 'response', 'api'],
  description: 'Answer the webhook call that started the run',
  category: 'action',
  scope: 'user',
  icon: 'reply',
  version: 1,
  serves: ['workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.respondToWebhook'] },
  replayable: true,
  options: {
    statusCode: field.number({
      label: 'Status code',
      min: 100,
      max: 599,
      step: 1,
      defaultValue: 200,
    }),
    headers: field.keyValue({ label: 'Headers', allowVariables: true }),
    body: field.string({
      label: 'Body',
      placeholder: '{ "ok": true, "id": "{{$input.body.id}}" }',
      helperText: 'Sent as JSON when it is JSON, as text otherwise; empty: the node input',
      allowVariables: true,
      multiline: true,
    }),
  },
})
