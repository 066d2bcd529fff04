import { test } from '@japa/runner'
import Bot from '#models/bot'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { MAKE_TOKEN, startAutomationHooks } from '#tests/stand_ins/automation_hooks'
import { runPluginTest } from '#sdk/testing'

const folderOf = (slug: string) => new URL(`../../plugins/${slug}/`, import.meta.url)

/**
 * The automation services' webhook blocks (Zapier, Make, Pabbly): the HTTP request block's
 * runner under another name. The editor's Test button posts the bot's variables, with the
 * test values typed in the block, to the service's catch hook (which learns the fields from
 * that sample), and a chat run posts the live values and maps the answer.
 */

async function member() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  return { user, workspace: await firstWorkspaceOf(user) }
}

async function botOf(who: Awaited<ReturnType<typeof member>>) {
  return Bot.create({
    workspaceId: who.workspace.id,
    createdBy: who.user.id,
    name: 'Leads',
    version: '6',
    groups: [],
    events: [],
    edges: [],
    variables: [
      { id: 'v_name', name: 'Name' },
      { id: 'v_email', name: 'Email' },
      { id: 'v_status', name: 'Status' },
    ],
    theme: {},
    settings: {},
    isArchived: false,
    isClosed: false,
  } as any)
}

const SERVICES = [
  { type: 'Zapier', path: '/hooks/catch/123456/abcdef/', answer: 'success', bodyPath: 'status' },
  { type: 'Make.com', path: `/${MAKE_TOKEN}`, answer: 'Accepted', bodyPath: 'data' },
  {
    type: 'Pabbly',
    path: '/workflow/sendwebhookdata/IjU3NjYwNTZhMDYzZTA0MzQ1MjY5NTUzMjUxMzUi_pc',
    answer: 'success',
    bodyPath: 'status',
  },
]

test.group('Automation webhooks (Zapier, Make, Pabbly)', () => {
  for (const service of SERVICES) {
    test(`${service.type}: the editor's test sends the sample payload the hook captures`, async ({
      client,
      assert,
      cleanup,
    }) => {
      const hooks = await startAutomationHooks()
      cleanup(() => hooks.close())
      const who = await member()
      const bot = await botOf(who)
      const options = {
        webhook: { method: 'POST', url: `${hooks.baseUrl}${service.path}` },
        variablesForTest: [
          { variableId: 'v_name', value: 'Ada' },
          { variableId: 'v_email', value: 'ada@example.com' },
        ],
        responseVariableMapping: [{ bodyPath: service.bodyPath, variableId: 'v_status' }],
      }
      const values = { v_name: 'Ada', v_email: 'ada@example.com' }
      const tested = await client
        .post(`/api/bots/${bot.id}/blocks/test`)
        .loginAs(who.user)
        .withCsrfToken()
        .json({ type: service.type, options, values })
      tested.assertStatus(200)
      assert.lengthOf(hooks.requests, 1)
      const [sample] = hooks.requests
      assert.equal(sample.method, 'POST')
      assert.equal(sample.path, service.path)
      assert.equal(sample.headers['content-type'], 'application/json')
      assert.deepEqual(JSON.parse(sample.body), {
        Name: 'Ada',
        Email: 'ada@example.com',
        Status: null,
      })
      assert.deepEqual(tested.body().variablesSet, [
        { id: 'v_status', name: 'Status', value: service.answer },
      ])
      const name = service.type === 'Make.com' ? 'Make' : service.type
      assert.equal(tested.body().logs[0].description, `${name} returned 200`)

      const stranger = await member()
      const refused = await client
        .post(`/api/bots/${bot.id}/blocks/test`)
        .loginAs(stranger.user)
        .withCsrfToken()
        .json({ type: service.type, options, values })
      refused.assertStatus(404)
      assert.lengthOf(hooks.requests, 1, 'a refused test sends nothing')
    })
  }

  test('in a chat: a custom body with variables, and a hook that does not exist is logged', async ({
    assert,
    cleanup,
  }) => {
    const hooks = await startAutomationHooks()
    cleanup(() => hooks.close())
    const variables = [
      { id: 'v_name', name: 'Name', value: 'Grace' },
      { id: 'v_status', name: 'Status', value: null },
    ]
    const sent = await runPluginTest({
      folder: folderOf('zapier'),
      surface: 'bot',
      options: {
        webhook: {
          method: 'POST',
          url: `${hooks.baseUrl}/hooks/catch/1/zap/`,
          headers: [{ key: 'X-Source', value: 'bot' }],
          body: '{ "lead": "{{Name}}" }',
        },
        isCustomBody: true,
        responseVariableMapping: [{ bodyPath: 'data.status', variableId: 'v_status' }],
      },
      variables,
    })
    assert.deepEqual(JSON.parse(hooks.requests[0].body), { lead: 'Grace' })
    assert.equal(hooks.requests[0].headers['x-source'], 'bot')
    assert.deepEqual((sent.result as any).variablesToSet, [{ id: 'v_status', value: 'success' }])

    const missing = await runPluginTest({
      folder: folderOf('pabbly'),
      surface: 'bot',
      options: { webhook: { method: 'POST', url: `${hooks.baseUrl}/workflow/unknown/x` } },
      variables,
    })
    assert.deepEqual(missing.errors, ['Pabbly returned 404'])
  })
})
