import env from '#start/env'

/*
 * `#sdk/slack_users`: server side only (it reads the environment); `#sdk/slack` stays free of
 * it because plugin manifests, which the browser bundle imports, take constants from there.
 */

/**
 * How many Slack users one node may reach in a run ("Configuration defaults":
 * Slack user limit 10; SLACK_USER_LIMIT changes it). A direct message to each is two Web API
 * calls, and Slack rate-limits chat.postMessage to about one message a second per
 * conversation: a variable that expands to a whole member list would otherwise flood a
 * workspace and stall the run for minutes.
 */
export const SLACK_USER_LIMIT_DEFAULT = 10

export function slackUserLimit(): number {
  const limit = env.get('SLACK_USER_LIMIT')
  return typeof limit === 'number' && limit > 0 ? limit : SLACK_USER_LIMIT_DEFAULT
}
