import { definePlugin, field } from '#sdk/plugin'
import { SLACK_DEFAULT_BASE_URL } from '#sdk/slack'

/**
 * Starts a run per event of the Slack Events API. The Slack app's Event Subscriptions
 * point at the workflow's event URL; each call is checked against the signing secret.
 * Activation checks the bot token (auth.test), so a wrong token is said at once.
 */
export default definePlugin({
  id: 'slack-trigger',
  name: 'Slack trigger',
  fullName: 'Slack events trigger',
  tags: ['slack', 'chat', 'message', 'event'],
  description: 'Start the workflow on events of your Slack app (messages, mentions...)',
  category: 'trigger',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://api.slack.com/apis/events-api',
  serves: ['workflow'],
  exposesUrl: {
    kind: 'event',
    hint: "Paste this into your Slack app's Event Subscriptions as the Request URL, once the workflow is active.",
  },
  credentials: {
    signingSecret: field.string({
      label: 'Signing secret',
      secret: true,
      required: true,
      helperText: "In your Slack app's Basic Information, under App Credentials.",
    }),
    botToken: field.string({
      label: 'Bot token',
      placeholder: 'xoxb-...',
      secret: true,
      required: true,
      helperText: "In your Slack app's OAuth & Permissions page.",
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'API base URL',
      defaultValue: SLACK_DEFAULT_BASE_URL,
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Slack app',
      credentialType: 'slack-trigger',
      required: true,
      helperText:
        "Set the Request URL of the app's Event Subscriptions to this workflow's event URL: {APP_URL}/api/v1/workflows/{workflow id}/events/{node id}.",
    }),
    eventTypes: field.string({
      label: 'Event types',
      defaultValue: 'message, app_mention',
      placeholder: 'message, app_mention',
      helperText: 'Comma-separated Slack event types; empty takes every event the app receives.',
    }),
    channelId: field.string({
      label: 'Channel ID',
      placeholder: 'C0123456789',
      helperText: 'Only events of this channel; empty takes every channel.',
    }),
    ignoreBots: field.boolean({
      label: 'Ignore messages of bots',
      helperText: 'Keeps a workflow that posts to Slack from starting itself again.',
      defaultValue: true,
    }),
  },
})
