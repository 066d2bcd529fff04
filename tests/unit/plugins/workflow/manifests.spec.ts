import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, serverOnlyImportsOf, type PluginRegistry } from '#plugins/registry'
import { defaultsOf, editorViewOf, formOf, localeOf, validatorFor } from '#plugins/derive'
import { categoryOn, storedOptionsOf } from '#plugins/define_plugin'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))

/** Workflow nodes by id, with the category the workflow palette lists them under. */
const NODES: Record<string, string> = {
  'manual-trigger': 'trigger',
  'webhook-trigger': 'trigger',
  'schedule-trigger': 'trigger',
  'Condition': 'flow',
  'Wait': 'flow',
  'Code': 'flow',
  'Set variable': 'flow',
  'Webhook': 'action',
  'send-email': 'action',
  'respond-to-webhook': 'action',
}

/** The ids the workflow-only twins had before they were folded into the bot blocks. */
const FOLDED: Record<string, string> = {
  'workflow-condition': 'Condition',
  'workflow-wait': 'Wait',
  'workflow-script': 'Code',
  'workflow-set-variable': 'Set variable',
  'workflow-http-request': 'Webhook',
  'workflow-llm-agent': 'llm-agent',
  'groq-chat-model': 'groq',
  'openai-chat-model': 'openai',
}

async function messagesOf(promise: Promise<unknown>) {
  try {
    await promise
    return ''
  } catch (error: any) {
    return (error.messages ?? []).map((m: any) => m.message).join('\n')
  }
}

test.group('Workflow node plugins', (group) => {
  let registry: PluginRegistry
  group.setup(async () => {
    registry = await loadPlugins(ROOT)
  })

  test('each is a workflow node with a runner, a README and a matching en.json', async ({
    assert,
  }) => {
    for (const [id, category] of Object.entries(NODES)) {
      const plugin = registry.get(id)!
      assert.exists(plugin, id)
      assert.equal(categoryOn(plugin, 'workflow'), category, id)
      assert.include([...plugin.serves], 'workflow', id)
      assert.isFunction(await registry.runnerOf(id), id)
      const folder = registry.folderOf(id)!
      assert.isTrue(existsSync(join(folder, 'README.md')), `${id} README`)
      const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
      assert.deepEqual(locale, JSON.parse(JSON.stringify(localeOf(plugin))), `${id} en.json`)
      assert.deepEqual(serverOnlyImportsOf(await readFile(join(folder, 'index.ts'), 'utf8')), [])
      await assert.doesNotReject(
        () => validatorFor(plugin, { mode: 'save' }).validate(defaultsOf(plugin)),
        id
      )
      assert.doesNotThrow(() => JSON.stringify(formOf(plugin)))
    }
    assert.includeMembers(
      registry.forWorkflows().map((plugin) => plugin.id),
      Object.keys(NODES)
    )
  })

  test('the former ids of folded twins stand for the plugin that took them', ({ assert }) => {
    for (const [alias, id] of Object.entries(FOLDED)) {
      assert.equal(registry.get(alias)?.id, id, alias)
      assert.equal(registry.canonicalId(alias), id, alias)
      assert.notInclude(
        registry.all().map((plugin) => plugin.id),
        alias
      )
    }
  })

  test('defaults are the documented ones', ({ assert }) => {
    const defaults = (id: string) =>
      editorViewOf(registry.get(id)!, 'workflow').defaults as Record<string, unknown>
    assert.deepInclude(defaults('schedule-trigger'), { mode: 'minutes', minutesInterval: 1 })
    assert.deepInclude(defaults('webhook-trigger'), { method: 'POST', responseMode: 'immediately' })
    assert.deepInclude(defaults('Webhook'), { webhook: { method: 'POST' }, timeout: 10 })
    assert.notProperty(defaults('Webhook'), 'isExecutedOnClient', 'a bot-only field')
    assert.deepInclude(defaults('Wait'), { resume: 'interval', unit: 'minutes' })
    assert.notProperty(defaults('Wait'), 'shouldPause', 'a bot-only field')
    assert.deepEqual(editorViewOf(registry.get('groq')!, 'workflow').defaults, {
      action: 'Chat model',
      model: 'llama-3.3-70b-versatile',
    })
  })

  test('bounds of the field DSL', async ({ assert }) => {
    const schedule = validatorFor(registry.get('schedule-trigger')!)
    const cases: [Record<string, unknown>, string][] = [
      [{ minutesInterval: 0 }, 'Every how many minutes must be at least 1'],
      [{ minutesInterval: 60 }, 'Every how many minutes must be at most 59'],
      [{ mode: 'daily', hour: 24 }, 'Hour (UTC) must be at most 23'],
      [{ mode: 'daily', minute: 60 }, 'Minute must be at most 59'],
      [{ mode: 'weekly', dayOfWeek: 7 }, 'Day of the week (0 is Sunday) must be at most 6'],
      [{ mode: 'monthly', dayOfMonth: 0 }, 'Day of the month must be at least 1'],
      [{ mode: 'monthly', dayOfMonth: 32 }, 'Day of the month must be at most 31'],
    ]
    for (const [options, message] of cases) {
      assert.equal(await messagesOf(schedule.validate(options)), message)
    }
    assert.match(
      await messagesOf(schedule.validate({ mode: 'yearly' })),
      /^Run must be one of minutes, hourly, daily, weekly, monthly/
    )
    // Nodes stored under the former workflow-only id are validated in the folded shape.
    const httpPlugin = registry.get('workflow-http-request')!
    const http = {
      validate: (stored: Record<string, unknown>) =>
        validatorFor(httpPlugin).validate(
          storedOptionsOf(httpPlugin, 'workflow-http-request', stored, 'workflow')
        ),
    }
    assert.equal(
      await messagesOf(http.validate({ url: 'https://x.test', timeout: 0 })),
      'Timeout (seconds) must be at least 1'
    )
    assert.equal(
      await messagesOf(http.validate({ url: 'https://x.test', timeout: 121 })),
      'Timeout (seconds) must be at most 120'
    )
    assert.equal(await messagesOf(http.validate({ method: 'GET' })), 'URL is required')
    const webhook = validatorFor(registry.get('webhook-trigger')!)
    assert.match(
      await messagesOf(webhook.validate({ method: 'PUT' })),
      /^Method must be one of POST, GET/
    )
    const respond = validatorFor(registry.get('respond-to-webhook')!)
    assert.equal(
      await messagesOf(respond.validate({ statusCode: 99 })),
      'Status code must be at least 100'
    )
    const wait = validatorFor(registry.get('Wait')!)
    await assert.doesNotReject(() => wait.validate({ amount: '{{Delay}}', unit: 'days' }))
    assert.match(await messagesOf(wait.validate({ unit: 'weeks' })), /^Unit must be one of seconds/)
    const email = validatorFor(registry.get('send-email')!)
    assert.equal(await messagesOf(email.validate({})), 'To is required\nSubject is required')
  })
})
