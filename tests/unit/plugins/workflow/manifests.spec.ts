import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, serverOnlyImportsOf, type PluginRegistry } from '#plugins/registry'
import { defaultsOf, formOf, localeOf, validatorFor } from '#plugins/derive'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))

const NODES: Record<string, string> = {
  'manual-trigger': 'trigger',
  'webhook-trigger': 'trigger',
  'schedule-trigger': 'trigger',
  'workflow-condition': 'flow',
  'workflow-wait': 'flow',
  'workflow-script': 'flow',
  'workflow-set-variable': 'flow',
  'workflow-http-request': 'action',
  'send-email': 'action',
  'respond-to-webhook': 'action',
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
      assert.equal(plugin.category, category, id)
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

  test('defaults follow the spec', ({ assert }) => {
    const defaults = (id: string) => defaultsOf(registry.get(id)!) as Record<string, unknown>
    assert.deepInclude(defaults('schedule-trigger'), { mode: 'minutes', minutesInterval: 1 })
    assert.deepInclude(defaults('webhook-trigger'), { method: 'POST', responseMode: 'immediately' })
    assert.deepInclude(defaults('workflow-http-request'), { method: 'POST', timeout: 10 })
    assert.deepInclude(defaults('workflow-wait'), { resume: 'interval', unit: 'minutes' })
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
    const http = validatorFor(registry.get('workflow-http-request')!)
    assert.equal(
      await messagesOf(http.validate({ url: 'https://x.test', timeout: 0 })),
      'Timeout (seconds) must be at least 1'
    )
    assert.equal(
      await messagesOf(http.validate({ url: 'https://x.test', timeout: 121 })),
      'Timeout (seconds) must be at most 120'
    )
    assert.equal(await messagesOf(http.validate({})), 'URL is required')
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
    const wait = validatorFor(registry.get('workflow-wait')!)
    await assert.doesNotReject(() => wait.validate({ amount: '{{Delay}}', unit: 'days' }))
    assert.match(await messagesOf(wait.validate({ unit: 'weeks' })), /^Unit must be one of seconds/)
    const email = validatorFor(registry.get('send-email')!)
    assert.equal(await messagesOf(email.validate({})), 'To is required\nSubject is required')
  })
})
