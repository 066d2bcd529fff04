import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runWithContext } from '#services/runner_context'
import { MAX_VARIABLE_SET_CHARS } from '#sandbox/limits'
import code from '../../plugins/code/index.js'
import { run as runCodeBlock } from '../../plugins/code/runner.js'
import { definePlugin } from '#plugins/define_plugin'
import { field } from '#plugins/fields'
import { CreateCredential } from '#actions/credentials/create_credential'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

const probe = definePlugin({
  id: 'probe',
  name: 'Probe',
  fullName: 'Probe',
  tags: [],
  category: 'integration',
  scope: 'user',
  version: 1,
  serves: ['bot'],
  credentials: { apiKey: field.string({ secret: true, required: true }) },
  options: {
    url: field.string({ allowVariables: true }),
    greeting: field.string({ allowVariables: true }),
    code: field.code({ lang: 'javascript' }),
    saveIn: field.variable({ writes: true }),
    credentialsId: field.credentials({ credentialType: 'probe' }),
  },
})

const variables = [
  { id: 'v1', name: 'First name', value: 'Ada' },
  { id: 'v2', name: 'Count', value: 2 },
  { id: 'v3', name: 'Result' },
]

test.group('Runner context', () => {
  test('options arrive substituted, expressions evaluated in the sandbox, code left as is', async ({
    assert,
  }) => {
    let seen: any
    const out = await runWithContext(
      async (ctx) => {
        seen = ctx.options
        ctx.variables.set('v3', `${ctx.variables.get('First name')}!`)
        ctx.logger.success('done')
      },
      {
        plugin: probe,
        workspaceId: 'w',
        variables,
        options: {
          greeting: 'Hi {{First name}}, {{Unknown}}x {{= {{Count}} * 21 =}}',
          code: 'return {{Count}}',
          saveIn: 'v3',
        },
      }
    )
    assert.equal(seen.greeting, 'Hi Ada, x 42')
    assert.equal(seen.code, 'return {{Count}}')
    assert.deepEqual(out.variablesSet, [{ id: 'v3', value: 'Ada!' }])
    assert.deepEqual(out.logs, [{ status: 'success', description: 'done', details: undefined }])
  })

  test('a thrown error becomes an error log and nothing else fails', async ({ assert }) => {
    const out = await runWithContext(
      async () => {
        throw new Error('Service unavailable')
      },
      { plugin: probe, workspaceId: 'w', variables, options: {} }
    )
    assert.equal(out.logs[0].status, 'error')
    assert.equal(out.logs[0].description, 'Service unavailable')
    assert.isUndefined(out.result)
  })

  test('credentials are decrypted for the runner, only from the same workspace and owner', async ({
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    // Credentials of a real plugin type; the probe runner reads them as its own.
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'k',
      data: { apiKey: 'sk-secret' },
    })
    let received: any
    await runWithContext(
      async (ctx) => {
        received = ctx.credentials
      },
      {
        plugin: probe,
        workspaceId: workspace.id,
        ownerId: user.id,
        variables,
        options: { credentialsId: record.id },
      }
    )
    assert.equal(received.apiKey, 'sk-secret')

    const other = await runWithContext(async () => {}, {
      plugin: probe,
      workspaceId: 'another-workspace',
      variables,
      options: { credentialsId: record.id },
    })
    assert.deepEqual(
      other.logs.map((l) => l.description),
      ['Probe: the selected credentials were not found']
    )
  })

  test('the HTTP client, storage and sandbox are real', async ({ assert }) => {
    const server = createServer((_req, res) => res.end('pong'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    let body = ''
    let url = ''
    let computed: unknown
    await runWithContext(
      async (ctx) => {
        body = await (
          await ctx.http.request(String((ctx.options as Record<string, unknown>).url))
        ).text()
        url = await ctx.storage.put(new TextEncoder().encode('hello'), {
          type: 'text/plain',
          name: 'a.txt',
        })
        computed = await ctx.sandbox!.run('return a + b', { a: 1, b: 2 })
      },
      {
        plugin: probe,
        workspaceId: 'w',
        variables,
        options: { url: `http://127.0.0.1:${port}/ping` },
      }
    )
    server.close()
    assert.equal(body, 'pong')
    assert.match(url, /\/storage\/public\/w\/c[0-9a-z]+\.txt$/)
    assert.equal(computed, 3)
  })

  test('the signal is made on first read, follows the caller, and survives a spread', async ({
    assert,
  }) => {
    const controller = new AbortController()
    const seen: { own?: PropertyDescriptor; signal?: AbortSignal; spread?: AbortSignal }[] = []
    const runner = async (ctx: any) => {
      // Read before anything touches it: still an accessor, nothing made yet.
      const own = Object.getOwnPropertyDescriptor(ctx, 'signal')
      seen.push({ own, signal: ctx.signal, spread: { ...ctx }.signal })
    }
    const input = { plugin: probe, workspaceId: 'w', variables, options: {} }
    await runWithContext(runner, { ...input, signal: controller.signal })
    await runWithContext(runner, { ...input, timeoutMs: 50 })
    const [first, second] = seen
    // One getter for every context: a getter per context kept each turn alive in V8's
    // young generation until the next full GC.
    assert.isFunction(first.own!.get)
    assert.strictEqual(first.own!.get, second.own!.get)
    assert.isTrue(first.own!.enumerable)
    // The same signal on every read, spread included; it aborts with the caller's.
    assert.strictEqual(first.spread, first.signal)
    assert.isFalse(first.signal!.aborted)
    controller.abort()
    assert.isTrue(first.signal!.aborted)
    // The second run's own timeout.
    assert.isFalse(second.signal!.aborted)
    await new Promise((resolve) => setTimeout(resolve, 80))
    assert.isTrue(second.signal!.aborted)
  })
})

test.group('Runner context: Code block variables', () => {
  const codeVariables = [
    { id: 'a', name: 'A', value: 'before' },
    { id: 'b', name: 'B', value: 'before' },
  ]
  const runCode = async (content: string) => {
    return runWithContext(runCodeBlock as any, {
      plugin: code,
      workspaceId: 'w',
      variables: codeVariables,
      options: { content, isExecutedOnClient: false },
    })
  }

  test('setVariable calls apply together when the code succeeds', async ({ assert }) => {
    const out = await runCode(`setVariable('A', 1); setVariable('B', 'two')`)
    assert.deepEqual(out.variablesSet, [
      { id: 'a', value: 1 },
      { id: 'b', value: 'two' },
    ])
  })

  test('a value over the size limit applies no value at all, with an error log', async ({
    assert,
  }) => {
    const big = `'x'.repeat(${MAX_VARIABLE_SET_CHARS + 1})`
    // Caught by the code: still nothing applies.
    const caught = await runCode(`setVariable('A', 1); try { setVariable('B', ${big}) } catch {}`)
    assert.deepEqual(caught.variablesSet, [])
    assert.equal(caught.logs[0]?.status, 'error')
    assert.match(caught.logs[0].description, /larger than .*no variable was changed/)

    // Not caught: the run fails and the earlier call does not apply either.
    const thrown = await runCode(`setVariable('A', 1); setVariable('B', ${big})`)
    assert.deepEqual(thrown.variablesSet, [])
    assert.match(thrown.logs[0].description, /RangeError.*no variable was changed/)

    // Many values that add up past the limit: the same.
    const piece = `'y'.repeat(${Math.ceil(MAX_VARIABLE_SET_CHARS / 3)})`
    const summed = await runCode(
      `for (let i = 0; i < 4; i++) { try { setVariable(i % 2 ? 'A' : 'B', ${piece}) } catch {} }`
    )
    assert.deepEqual(summed.variablesSet, [])
    assert.match(summed.logs[0].description, /too much data.*no variable was changed/)
  }).timeout(60_000)
})
