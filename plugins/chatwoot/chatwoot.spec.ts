import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)

test.group('Plugin Chatwoot', () => {
  test('Show widget: the chatwoot action with the token, the origin and the visitor', async ({
    assert,
  }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        task: 'Show widget',
        baseUrl: 'https://chat.example.com/app/',
        websiteToken: 'tok_{{Plan}}',
        user: { id: '{{Id}}', email: 'ada@example.com', name: '', phoneNumber: ' +3312 ' },
      },
      variables: [
        { id: 'v1', name: 'Plan', value: 'pro' },
        { id: 'v2', name: 'Id', value: 'u-7' },
      ],
    })
    assert.deepEqual(run.errors, [])
    const [action] = (run.result as any).clientSideActions
    assert.equal(action.type, 'chatwoot')
    assert.deepInclude(action.chatwoot, {
      task: 'Show widget',
      baseUrl: 'https://chat.example.com',
      websiteToken: 'tok_pro',
      user: { id: 'u-7', email: 'ada@example.com', phoneNumber: '+3312' },
    })
    // The script for chat API clients that run scripts loads the same SDK with the same token.
    const script: string = action.chatwoot.scriptToExecute.content
    assert.include(script, '"https://chat.example.com/packs/js/sdk.js"')
    assert.include(script, '{"websiteToken":"tok_pro","baseUrl":"https://chat.example.com"}')
    assert.include(script, 'setUser("u-7", {"email":"ada@example.com","phone_number":"+3312"})')
  })

  test('Close widget needs no token; a missing token or a bad URL is logged', async ({
    assert,
  }) => {
    const closing = await runPluginTest({
      folder,
      surface: 'bot',
      options: { task: 'Close widget' },
    })
    const [action] = (closing.result as any).clientSideActions
    assert.equal(action.chatwoot.task, 'Close widget')
    assert.include(action.chatwoot.scriptToExecute.content, "toggle('close')")

    const tokenless = await runPluginTest({
      folder,
      surface: 'bot',
      options: { task: 'Show widget', websiteToken: '{{Missing}}' },
    })
    assert.deepEqual(tokenless.errors, ['Chatwoot: the website token is empty'])
    assert.isUndefined((tokenless.result as any)?.clientSideActions)

    const badUrl = await runPluginTest({
      folder,
      surface: 'bot',
      options: { task: 'Show widget', websiteToken: 't', baseUrl: 'javascript:alert(1)' },
    })
    assert.deepEqual(badUrl.errors, ['Chatwoot: "javascript:alert(1)" is not a valid URL'])
  })
})
