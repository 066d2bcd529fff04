import { test } from '@japa/runner'
import AiUsage from '#models/ai_usage'
import Credential from '#models/credential'
import User from '#models/user'
import { CreateCredential } from '#actions/credentials/create_credential'
import { TestCredential } from '#actions/credentials/test_credential'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import { creditsCost, priceFor, roundCredits } from '#services/ai/credits'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { PIXEL_PNG, STAND_IN_USAGE, startVisionStandIn } from '#tests/stand_ins/vision'

/**
 * The Vision Bot block through the real runner context (credentials from the database,
 * guarded HTTP, AI credits) against a local OpenAI-compatible vision stand-in.
 */

const KEY = 'sk-vision-test-0123456789'

interface Owner {
  user: User
  workspaceId: string
  credentialsId: string
}

test.group('Vision Bot block', (group) => {
  let service: Awaited<ReturnType<typeof startVisionStandIn>>
  let variables: VariableState[]

  group.setup(async () => {
    service = await startVisionStandIn({ apiKey: KEY })
    variables = [
      { id: 'v_photo', name: 'Photo', value: `${service.origin}/images/pixel.png` },
      { id: 'v_colour', name: 'Colour' },
      { id: 'v_width', name: 'Width' },
    ]
    return () => service.close()
  })
  group.each.setup(() => {
    service.requests.length = 0
  })

  async function owner(data: Record<string, unknown> = {}): Promise<Owner> {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'vision-bot',
      name: 'Vision',
      data: { apiKey: KEY, baseUrl: service.baseUrl, ...data },
    })
    return { user, workspaceId: workspace.id, credentialsId: record.id }
  }

  async function run(who: Owner, options: Record<string, unknown>) {
    const registry = await pluginRegistry()
    return runPlugin({
      registry,
      plugin: registry.get('vision-bot')!,
      options: {
        credentialsId: who.credentialsId,
        image: '{{Photo}}',
        text: 'Describe it',
        responseMapping: [{ variableId: 'v_colour' }, { variableId: 'v_width' }],
        ...options,
      },
      variables,
      workspaceId: who.workspaceId,
      ownerId: who.user.id,
    })
  }

  const usagesOf = (who: Owner) =>
    AiUsage.query().where('account_id', who.user.id).where('source', 'vision-bot')
  const chatRequests = () => service.requests.filter((r) => r.path === '/v1/chat/completions')

  test('the credential test lists the models and looks for the chosen one', async ({ assert }) => {
    const check = async (who: Owner) =>
      new TestCredential().handle(who.user, await Credential.findOrFail(who.credentialsId))
    assert.deepEqual(await check(await owner()), {
      ok: true,
      message: 'Connected: 2 models available, including gpt-4o-mini.',
    })
    assert.equal(service.requests[0].path, '/v1/models')
    assert.equal(service.requests[0].headers.authorization, `Bearer ${KEY}`)
    assert.deepEqual(await check(await owner({ model: 'llava-13b' })), {
      ok: true,
      message: 'Connected, but llava-13b is not among the 2 models listed.',
    })
    assert.deepEqual(await check(await owner({ apiKey: 'sk-wrong' })), {
      ok: false,
      message: 'The API key was refused (401).',
    })
  })

  test('the image and instructions go to the vision model; each variable gets its value', async ({
    assert,
  }) => {
    const who = await owner()
    const out = await run(who, {})
    assert.deepEqual(out.logs, [])

    // The image is read without the API key, then sent inline.
    const [imageRequest, chat] = service.requests
    assert.equal(imageRequest.path, '/images/pixel.png')
    assert.isUndefined(imageRequest.headers.authorization)
    assert.equal(chat.path, '/v1/chat/completions')
    assert.equal(chat.headers.authorization, `Bearer ${KEY}`)
    assert.equal(chat.json.model, 'gpt-4o-mini')
    assert.equal(chat.json.temperature, 0)
    assert.deepEqual(chat.json.response_format, { type: 'json_object' })
    assert.include(chat.json.messages[0].content, '["Colour","Width"]')
    assert.deepEqual(chat.json.messages[1], {
      role: 'user',
      content: [
        { type: 'text', text: 'Describe it' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${PIXEL_PNG.toString('base64')}` },
        },
      ],
    })

    assert.deepEqual(out.variablesSet, [
      { id: 'v_colour', value: 'Colour of a 1x1 image (Describe it)' },
      { id: 'v_width', value: 1 },
    ])
  })

  test('the call is charged: a usage row with the token counts and the credits deducted', async ({
    assert,
  }) => {
    const who = await owner()
    const before = Number((await User.findOrFail(who.user.id)).aiCredits)
    const out = await run(who, {})
    assert.deepEqual(out.logs, [])
    const usages = await usagesOf(who)
    assert.lengthOf(usages, 1)
    // Priced under the model asked for, not the dated variant the server reports.
    assert.equal(usages[0].model, 'gpt-4o-mini')
    assert.equal(usages[0].inputTokens, STAND_IN_USAGE.prompt_tokens)
    assert.equal(usages[0].outputTokens, STAND_IN_USAGE.completion_tokens)
    const price = (await priceFor('gpt-4o-mini'))!
    assert.equal(price.model, 'gpt-4o-mini')
    const cost = creditsCost(
      {
        inputTokens: STAND_IN_USAGE.prompt_tokens,
        outputTokens: STAND_IN_USAGE.completion_tokens,
      },
      { inputToken: Number(price.inputToken), outputToken: Number(price.outputToken) }
    )
    assert.isAbove(cost, 0)
    assert.equal(usages[0].creditsUsed, cost)
    const after = Number((await User.findOrFail(who.user.id)).aiCredits)
    assert.equal(roundCredits(before - after), cost)
  })

  test('image and text are required, and a key; nothing is sent without them', async ({
    assert,
  }) => {
    const who = await owner()
    const cases: [Record<string, unknown>, string][] = [
      [{ image: ' ' }, 'Image URL is missing'],
      [{ text: '' }, 'Text is missing'],
      [{ credentialsId: undefined }, 'No API key provided'],
    ]
    for (const [options, message] of cases) {
      const out = await run(who, options)
      assert.deepEqual(
        out.logs.map((l) => [l.status, l.description]),
        [['error', message]]
      )
    }
    const unmapped = await run(who, { responseMapping: [] })
    assert.deepEqual(
      unmapped.logs.map((l) => [l.status, l.description]),
      [['info', 'Vision Bot: no variable is mapped, the image was not sent']]
    )
    assert.lengthOf(service.requests, 0)
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('a provider error is logged with its details and the flow goes on', async ({ assert }) => {
    const who = await owner({ model: 'broken-model' })
    const out = await run(who, {})
    assert.lengthOf(out.logs, 1)
    assert.equal(out.logs[0].status, 'error')
    assert.equal(out.logs[0].description, 'An API call error occured while generating the response')
    assert.deepInclude(out.logs[0].details as object, {
      status: 500,
      message: 'The vision server is overloaded',
    })
    assert.isUndefined(out.result)
    assert.deepEqual(out.variablesSet, [])
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('an image already inline (a data URL) is sent as it is', async ({ assert }) => {
    const who = await owner()
    const inline = `data:image/png;base64,${PIXEL_PNG.toString('base64')}`
    const out = await run(who, { image: inline, responseMapping: [{ variableId: 'v_width' }] })
    assert.deepEqual(out.logs, [])
    assert.deepEqual(
      service.requests.map((r) => r.path),
      ['/v1/chat/completions']
    )
    assert.equal(service.requests[0].json.messages[1].content[1].image_url.url, inline)
    assert.deepEqual(out.variablesSet, [{ id: 'v_width', value: 1 }])
  })

  test('a URL that is not an image, or too large, is refused before the model is asked', async ({
    assert,
  }) => {
    const who = await owner()
    const out = await run(who, { image: `${service.origin}/images/page.html` })
    assert.deepEqual(
      out.logs.map((l) => [l.status, l.description]),
      [['error', 'Vision Bot: the URL does not point to an image']]
    )
    assert.deepInclude(out.logs[0].details as object, { status: 200, contentType: 'text/html' })

    const huge = await run(who, { image: `${service.origin}/images/huge.png` })
    assert.deepEqual(
      huge.logs.map((l) => [l.status, l.description]),
      [['error', 'Vision Bot: the image is larger than 20 MB']]
    )
    assert.lengthOf(chatRequests(), 0)
    assert.lengthOf(await usagesOf(who), 0)
  })

  test('a plain-text answer fills a single variable, and is an error for several', async ({
    assert,
  }) => {
    const who = await owner({ model: 'plain-model' })
    const single = await run(who, { responseMapping: [{ variableId: 'v_colour' }] })
    assert.deepEqual(single.logs, [])
    assert.deepEqual(single.variablesSet, [{ id: 'v_colour', value: 'A 1x1 png image.' }])

    const several = await run(who, {})
    assert.deepEqual(
      several.logs.map((l) => l.description),
      ['Vision Bot: the answer is not the JSON object that was asked for']
    )
    assert.deepEqual(several.variablesSet, [])
    // Both calls were made, so both are charged.
    assert.lengthOf(await usagesOf(who), 2)
  })

  test('an owner without AI credits gets no call', async ({ assert }) => {
    const who = await owner()
    who.user.aiCredits = 0
    await who.user.save()
    const out = await run(who, {})
    assert.isTrue(out.aiCreditLimitExceeded)
    assert.lengthOf(chatRequests(), 0)
  })
})
