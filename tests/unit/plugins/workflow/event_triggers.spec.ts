import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, serverOnlyImportsOf, type PluginRegistry } from '#plugins/registry'
import { defaultsOf, formOf, localeOf, validatorFor } from '#plugins/derive'
import {
  signatureProblem,
  slackSignature,
  eventTypesOf,
} from '../../../../plugins/slack-trigger/api.js'
import { updateTypesOf } from '../../../../plugins/telegram-trigger/api.js'
import { messageInput, pollEveryMs } from '../../../../plugins/gmail-trigger/runner.js'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))
const TRIGGERS = ['telegram-trigger', 'slack-trigger', 'gmail-trigger']

test.group('Event trigger plugins', (group) => {
  let registry: PluginRegistry
  group.setup(async () => {
    registry = await loadPlugins(ROOT)
  })

  test('each is a workflow trigger with hooks, credentials, a README and a matching en.json', async ({
    assert,
  }) => {
    for (const id of TRIGGERS) {
      const plugin = registry.get(id)!
      assert.exists(plugin, id)
      assert.equal(plugin.category, 'trigger')
      assert.deepEqual([...plugin.serves], ['workflow'])
      assert.isFunction(await registry.runnerOf(id), id)
      assert.isObject(plugin.credentials, id)
      const folder = registry.folderOf(id)!
      for (const file of ['README.md', 'credentials.ts', 'icon.svg']) {
        assert.isTrue(existsSync(join(folder, file)), `${id} ${file}`)
      }
      const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
      assert.deepEqual(locale, JSON.parse(JSON.stringify(localeOf(plugin))), `${id} en.json`)
      assert.deepEqual(serverOnlyImportsOf(await readFile(join(folder, 'index.ts'), 'utf8')), [])
      await assert.doesNotReject(() =>
        validatorFor(plugin, { mode: 'save' }).validate(defaultsOf(plugin))
      )
      assert.doesNotThrow(() => JSON.stringify(formOf(plugin)))
    }
    assert.isFunction(await registry.exportOf('telegram-trigger', 'onActivate'))
    assert.isFunction(await registry.exportOf('telegram-trigger', 'onDeactivate'))
    assert.isFunction(await registry.exportOf('telegram-trigger', 'handleEvent'))
    assert.isFunction(await registry.exportOf('slack-trigger', 'handleEvent'))
    assert.isFunction(await registry.exportOf('gmail-trigger', 'poll'))
    assert.isUndefined(await registry.exportOf('gmail-trigger', 'handleEvent'))
  })

  test('defaults and bounds', async ({ assert }) => {
    assert.deepInclude(defaultsOf(registry.get('gmail-trigger')!) as object, {
      pollMinutes: 1,
      query: 'in:inbox',
    })
    assert.deepInclude(defaultsOf(registry.get('telegram-trigger')!) as object, {
      message: true,
      callbackQuery: false,
    })
    assert.deepInclude(defaultsOf(registry.get('slack-trigger')!) as object, {
      eventTypes: 'message, app_mention',
      ignoreBots: true,
    })
    const gmail = validatorFor(registry.get('gmail-trigger')!)
    for (const pollMinutes of [0, 60]) {
      await assert.rejects(() => gmail.validate({ credentialsId: 'c', pollMinutes }))
    }
    assert.equal(pollEveryMs({ pollMinutes: 59 }), 59 * 60_000)
    assert.equal(pollEveryMs({ pollMinutes: 500 }), 59 * 60_000)
    assert.equal(pollEveryMs({ pollMinutes: 'x' }), 60_000)
  })

  test('Slack signatures: v0 HMAC-SHA256 of v0:{timestamp}:{body}, five minutes at most', ({
    assert,
  }) => {
    // Worked by hand: printf 'v0:1531420618:hello' | openssl dgst -sha256 -hmac secret
    const signature = slackSignature('secret', '1531420618', 'hello')
    assert.equal(signature, 'v0=cf20310fa94bde55d7304d8575f22412a81fd33f33f2177e7f815b5172e04376')
    const now = 1531420618 * 1000
    const headers = { 'x-slack-request-timestamp': '1531420618', 'x-slack-signature': signature }
    assert.isNull(signatureProblem('secret', headers, 'hello', now))
    assert.isNull(signatureProblem('secret', headers, 'hello', now + 299_000))
    assert.equal(
      signatureProblem('secret', headers, 'hello', now + 301_000),
      'Stale Slack request timestamp'
    )
    assert.equal(signatureProblem('secret', headers, 'hello!', now), 'Invalid Slack signature')
    assert.equal(signatureProblem('other', headers, 'hello', now), 'Invalid Slack signature')
    assert.equal(signatureProblem('secret', {}, 'hello', now), 'Missing Slack signature')
    assert.deepEqual(eventTypesOf(' message,app_mention  reaction_added '), [
      'message',
      'app_mention',
      'reaction_added',
    ])
    assert.deepEqual(eventTypesOf(''), [])
  })

  test('Telegram update types and Gmail run inputs', ({ assert }) => {
    assert.deepEqual(updateTypesOf({}), ['message'])
    assert.deepEqual(updateTypesOf({ message: false, editedMessage: true, callbackQuery: true }), [
      'edited_message',
      'callback_query',
    ])
    assert.deepEqual(
      messageInput({
        id: 'm1',
        threadId: 't1',
        labelIds: ['INBOX'],
        snippet: 'Hi',
        internalDate: '1700000000000',
        payload: {
          headers: [
            { name: 'from', value: 'a@example.com' },
            { name: 'Subject', value: 'Hello' },
          ],
        },
      }),
      {
        id: 'm1',
        threadId: 't1',
        from: 'a@example.com',
        to: null,
        subject: 'Hello',
        snippet: 'Hi',
        date: '2023-11-14T22:13:20.000Z',
        labels: ['INBOX'],
      }
    )
  })
})
