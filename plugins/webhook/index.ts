import { definePlugin, field } from '#sdk/plugin'

/**
 * The waiting webhook: the flow stops until the block's URL is called, then maps the
 * received body into variables. Not the outgoing HTTP request (that is 'Webhook',
 * in plugins/http-request).
 */
export default definePlugin({
  id: 'webhook',
  name: 'Webhook',
  fullName: 'Webhook (wait for a call)',
  tags: ['webhook', 'http', 'api', 'callback'],
  description: 'Wait for a call to a webhook URL',
  category: 'logic',
  scope: 'user',
  icon: 'webhook',
  version: 1,
  serves: ['bot'],
  options: {
    responseVariableMapping: field.responseMapping({ label: 'Save in variables', key: 'bodyPath' }),
  },
})
