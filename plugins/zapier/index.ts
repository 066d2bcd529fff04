import { definePlugin } from '#sdk/plugin'
import { httpRequestFields } from '#sdk/http_fields'

/**
 * Zapier: posts the bot's variables (or a custom body) to the webhook URL of a Zap,
 * with the HTTP request block's options and runner (#sdk/http). The editor's Test button
 * sends the sample payload Zapier waits for to learn the fields.
 */
export default definePlugin({
  id: 'Zapier',
  name: 'Zapier',
  fullName: 'Zapier zap',
  tags: ['automation', 'webhook', 'no-code', 'zap'],
  description: 'Send the variables to a Zap and save its answer',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://help.zapier.com/hc/en-us/articles/8496288690317',
  serves: ['bot'],
  options: httpRequestFields({
    urlPlaceholder: 'https://hooks.zapier.com/hooks/catch/...',
    urlHelp:
      'In Zapier, make a Zap whose trigger is Webhooks by Zapier > Catch Hook and paste its webhook URL here.',
  }),
})
