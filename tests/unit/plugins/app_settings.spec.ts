import { test } from '@japa/runner'
import env from '#start/env'
import { runPluginTest } from '#sdk/testing'
import { startSlackStandIn } from '../../../plugins/slack/stand_in.js'

/**
 * The operator's settings (`#start/env`) as plugins meet them through the SDK. They stay here
 * rather than beside the plugins: a plugin's own tests cannot change the app's environment
 * (docs/plugins.md, "Where tests live").
 */
const slackFolder = new URL('../../../plugins/slack/', import.meta.url)
const redisFolder = new URL('../../../plugins/redis/', import.meta.url)

test.group('App settings that plugins follow', () => {
  test('SLACK_USER_LIMIT changes how many users one Slack node may reach', async ({
    assert,
    cleanup,
  }) => {
    const slack = await startSlackStandIn({ botToken: 'xoxb-test-token', signingSecret: 's' })
    cleanup(() => slack.close())
    const before = env.get('SLACK_USER_LIMIT')
    cleanup(() => {
      env.set('SLACK_USER_LIMIT', before as never)
      if (before === undefined) delete process.env.SLACK_USER_LIMIT
    })
    env.set('SLACK_USER_LIMIT', 2 as never)
    const send = (count: number) =>
      runPluginTest({
        folder: slackFolder,
        surface: 'workflow',
        action: 'Send a direct message',
        credentials: { botToken: 'xoxb-test-token', signingSecret: 's', baseUrl: slack.baseUrl },
        options: {
          users: Array.from({ length: count }, (_, i) => `U0M${i}`).join(', '),
          text: 'hi',
        },
      })

    const three = await send(3)
    assert.match(three.errors[0], /3 users given, at most 2 per node/)
    assert.lengthOf(slack.messages, 0)
    assert.deepEqual((await send(2)).errors, [])
    assert.lengthOf(slack.messages, 2)
  })

  test('a Redis node refuses an internal host unless ALLOW_INTERNAL_HTTP allows it', async ({
    assert,
    cleanup,
  }) => {
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => env.set('ALLOW_INTERNAL_HTTP', true))
    const outcome = await runPluginTest({
      folder: redisFolder,
      surface: 'workflow',
      action: 'Get',
      options: { key: 'x' },
      credentials: { url: 'redis://localhost:6379/8' },
    })
    assert.deepEqual(outcome.errors, ['Get failed'])
    assert.match(String(outcome.logs[0].details), /internal network addresses are not allowed/)
  })
})
