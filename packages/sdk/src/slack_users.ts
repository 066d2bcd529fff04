import { appPort } from './port.js'

/*
 * `@flowcraft/sdk/slack_users` (`#sdk/slack_users`): server side only (the bound is the app's
 * configuration, reached through the SDK's port); `/slack` stays free of it because plugin
 * manifests, which the browser bundle imports, take constants from there.
 */

/**
 * How many Slack users one node may reach in a run (10 unless the operator's
 * SLACK_USER_LIMIT says otherwise). A direct message to each is two Web API calls, and Slack
 * rate-limits chat.postMessage to about one message a second per conversation: a variable
 * that expands to a whole member list would otherwise flood a workspace and stall the run
 * for minutes.
 */
export const SLACK_USER_LIMIT_DEFAULT = 10

export function slackUserLimit(): number {
  return appPort('limits').slackUsers()
}
