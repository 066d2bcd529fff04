import { definePlugin } from '#sdk/plugin'
import { httpRequestFields } from '#sdk/http_fields'

/**
 * Make: posts the bot's variables (or a custom body) to the webhook URL of a Make scenario,
 * with the HTTP request block's options and runner (#sdk/http). The editor's Test button
 * sends the sample payload Make waits for to learn the fields.
 */
export default definePlugin({
  id: 'Make.com',
  name: 'Make',
  fullName: 'Make (Integromat) scenario',
  tags: ['automation', 'webhook', 'integromat', 'no-code'],
  description: 'Send the variables to a Make scenario and save its answer',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://www.make.com/en/help/tools/webhooks',
  serves: ['bot'],
  options: httpRequestFields({
    urlPlaceholder: 'https://hook.eu1.make.com/...',
    urlHelp:
      'In Make, start a scenario with the Webhooks > Custom webhook module, add a webhook and paste its address here.',
  }),
})
