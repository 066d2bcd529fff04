import { definePlugin } from '#sdk/plugin'
import { httpRequestFields } from '#sdk/http_fields'

/**
 * Pabbly: posts the bot's variables (or a custom body) to the webhook URL of a Pabbly Connect workflow,
 * with the HTTP request block's options and runner (#sdk/http). The editor's Test button
 * sends the sample payload Pabbly waits for to learn the fields.
 */
export default definePlugin({
  id: 'Pabbly',
  name: 'Pabbly',
  fullName: 'Pabbly Connect workflow',
  tags: ['automation', 'webhook', 'no-code'],
  description: 'Send the variables to a Pabbly Connect workflow and save its answer',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://www.pabbly.com/connect/integrations/webhook/',
  serves: ['bot'],
  options: httpRequestFields({
    urlPlaceholder: 'https://connect.pabbly.com/workflow/sendwebhookdata/...',
    urlHelp:
      'In Pabbly Connect, make a workflow whose trigger is Webhook and paste its webhook URL here.',
  }),
})
