import { test } from '@japa/runner'
import { runPluginTest, startStandIn } from '#sdk/testing'
import { startSlackStandIn } from './stand_in.js'

const folder = new URL('./', import.meta.url)
const BOT_TOKEN = 'xoxb-test-token'

/** The Slack action node against the Web API stand-in (stand_in.ts). */
test.group('Plugin slack (workflow actions)', (group) => {
  let slack: Awaited<ReturnType<typeof startSlackStandIn>>
  group.each.setup(async () => {
    slack = await startSlackStandIn({ botToken: BOT_TOKEN, signingSecret: 's' })
    return () => slack.close()
  })
  const common = () => ({
    folder,
    surface: 'workflow' as const,
    credentials: { botToken: BOT_TOKEN, signingSecret: 's', baseUrl: slack.baseUrl },
  })

  test('Post a message, then reply in its thread, broadcast', async ({ assert }) => {
    const posted = await runPluginTest({
      ...common(),
      action: 'Post a message',
      options: { channel: 'C0ORDERS', text: 'Order *{{Order}}* placed', unfurlLinks: false },
      variables: [{ id: 'v', name: 'Order', value: 'A-42' }],
    })
    assert.deepEqual(posted.errors, [])
    const { ts } = posted.output as { ts: string }
    const reply = await runPluginTest({
      ...common(),
      action: 'Reply in a thread',
      options: { channel: 'C0ORDERS', threadTs: ts, text: 'Shipped', alsoSendToChannel: true },
    })
    assert.deepEqual(reply.errors, [])
    assert.deepEqual(
      slack.messages.map((m) => [
        m.text,
        m.thread_ts,
        m.params.unfurl_links,
        m.params.reply_broadcast,
      ]),
      [
        ['Order *A-42* placed', undefined, 'false', undefined],
        ['Shipped', ts, undefined, 'true'],
      ]
    )
    assert.deepEqual(reply.output, {
      channel: 'C0ORDERS',
      ts: slack.messages[1].ts,
      threadTs: ts,
    })
  })

  test('Upload a file: read from its URL, sent to the upload URL, shared with the comment', async ({
    assert,
    cleanup,
  }) => {
    const content = Buffer.from('%PDF-1.4 invoice')
    const host = await startStandIn(({ res }) => {
      res.writeHead(200, { 'content-type': 'application/pdf' })
      res.end(content)
    })
    cleanup(() => host.close())
    const run = await runPluginTest({
      ...common(),
      action: 'Upload a file',
      options: {
        channel: 'C0ORDERS',
        fileUrl: `${host.baseUrl}/files/invoice%20A-42.pdf`,
        initialComment: 'Your invoice',
      },
    })
    assert.deepEqual(run.errors, [])
    const [file] = [...slack.files.values()]
    assert.equal(file.filename, 'invoice A-42.pdf')
    assert.deepEqual(file.bytes, content)
    assert.equal(file.shared?.channel_id, 'C0ORDERS')
    assert.equal(file.shared?.initial_comment, 'Your invoice')
    assert.deepEqual(JSON.parse(file.shared!.files), [{ id: 'F000001', title: 'invoice A-42.pdf' }])
    assert.deepInclude(run.output as object, { fileId: 'F000001', bytes: content.length })
  })

  test("Slack's refusals and bad fields fail the node with the reason", async ({ assert }) => {
    const notMember = await runPluginTest({
      ...common(),
      action: 'Post a message',
      options: { channel: 'C0OTHER', text: 'hi' },
    })
    assert.deepEqual(notMember.errors, ['Slack refused chat.postMessage: not_in_channel'])
    const badTs = await runPluginTest({
      ...common(),
      action: 'Reply in a thread',
      options: { channel: 'C0ORDERS', threadTs: 'yesterday', text: 'hi' },
    })
    assert.match(badTs.errors[0], /"yesterday" is not a message ts/)
    const unknownThread = await runPluginTest({
      ...common(),
      action: 'Reply in a thread',
      options: { channel: 'C0ORDERS', threadTs: '1.000100', text: 'hi' },
    })
    assert.deepEqual(unknownThread.errors, ['Slack refused chat.postMessage: thread_not_found'])
    const wrongToken = await runPluginTest({
      ...common(),
      credentials: { botToken: 'xoxb-nope', baseUrl: slack.baseUrl },
      action: 'Post a message',
      options: { channel: 'C0ORDERS', text: 'hi' },
    })
    assert.deepEqual(wrongToken.errors, ['Slack refused chat.postMessage: invalid_auth'])
    assert.lengthOf(slack.messages, 0)
  })

  test('Send a direct message: each member once, in their own conversation', async ({ assert }) => {
    const run = await runPluginTest({
      ...common(),
      action: 'Send a direct message',
      options: { users: 'U0ADA, {{Owner}} U0ADA', text: 'Order {{Order}} is late' },
      variables: [
        { id: 'o', name: 'Owner', value: 'U0BOB' },
        { id: 'v', name: 'Order', value: 'A-42' },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual(
      slack.messages.map((m) => [m.channel, m.text]),
      [
        ['D0ADA', 'Order A-42 is late'],
        ['D0BOB', 'Order A-42 is late'],
      ]
    )
    assert.deepEqual(run.output, {
      messages: [
        { user: 'U0ADA', channel: 'D0ADA', ts: slack.messages[0].ts },
        { user: 'U0BOB', channel: 'D0BOB', ts: slack.messages[1].ts },
      ],
    })
    assert.deepEqual(
      slack.calls.map((call) => call.method),
      ['conversations.open', 'chat.postMessage', 'conversations.open', 'chat.postMessage']
    )
  })

  test('the Slack user limit: 10 users by default; over it nothing is sent', async ({ assert }) => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `U0M${i}`).join(', ')
    const send = (users: string) =>
      runPluginTest({
        ...common(),
        action: 'Send a direct message',
        options: { users, text: 'hi' },
      })

    const eleven = await send(ids(11))
    assert.deepEqual(eleven.errors, [
      'Slack: 11 users given, at most 10 per node (SLACK_USER_LIMIT); nothing was sent',
    ])
    assert.lengthOf(slack.calls, 0)
    const ten = await send(ids(10))
    assert.deepEqual(ten.errors, [])
    assert.lengthOf(slack.messages, 10)

    const wrong = await send('U0ADA, #general')
    assert.deepEqual(wrong.errors, ['Slack: "#general" is not a member ID (like U0123456789)'])
  })
})
