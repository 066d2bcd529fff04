import env from '#start/env'
import { SLACK_USER_LIMIT_DEFAULT } from '#sdk/slack_users'

/** The operator's bounds plugins apply, from the environment (the SDK's LimitsPort). */
export function slackUserLimit(): number {
  const limit = env.get('SLACK_USER_LIMIT')
  return typeof limit === 'number' && limit > 0 ? limit : SLACK_USER_LIMIT_DEFAULT
}
