import { test } from '@japa/runner'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import type { StartChatResponse } from '#shared/chat/types'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startGroqStandIn } from '#tests/stand_ins/groq'

/**
 * The LLM agent block inside a chat (preview startChat): the bot JSON is imported through
 * the API (its options pass the block's validators), the answer reaches the next bubble,
 * and a failure is logged while the chat goes on.
 */

const API_KEY = 'gsk_chat_agent'

test.group('LLM agent in a chat', (group) => {
  let groq: Awaited<ReturnType<typeof startGroqStandIn>>
  group.each.setup(async () => {
    groq = await startGroqStandIn({ apiKey: API_KEY })
    return () => groq.close()
  })

  test('the answer is shown by the next bubble; an unsupported agent is logged', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `agent-${Date.now()}`)).value
    const bot = (agent: string) => ({
      version: '6',
      name: 'Agent flow',
      groups: [
        {
          id: 'g1',
          title: 'Ask',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [
            {
              id: 'a1',
              type: 'llm-agent',
              options: {
                agent,
                secretKey: API_KEY,
                baseUrl: groq.baseUrl,
                userQuery: 'What is {{Number}} squared?',
                customToolEnabled: true,
                customTool: [
                  {
                    name: 'square',
                    description: 'Squares a number',
                    multiVariable: [{ inputVariable: 'x', inputType: 'number' }],
                    functionCode: 'return x * x',
                  },
                ],
                responseMapping: [{ item: 'Message content', variableId: 'v_answer' }],
              },
            },
            {
              id: 't1',
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: 'Agent: {{Answer}}' }] }] },
            },
          ],
        },
      ],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
      edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
      variables: [
        { id: 'v_number', name: 'Number', value: '7' },
        { id: 'v_answer', name: 'Answer' },
      ],
      theme: {},
      settings: {},
    })
    const start = async (agent: string) => {
      const imported = await client
        .post('/api/v1/bots')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, bot: bot(agent) })
      imported.assertStatus(201)
      const response = await client
        .post(`/api/v1/typebots/${imported.body().bot.id}/preview/startChat`)
        .bearerToken(token)
        .json({})
      response.assertStatus(200)
      return response.body() as StartChatResponse
    }

    groq.reply(
      { toolCalls: [{ name: 'square', arguments: { x: 7 } }] },
      { content: '7 squared is 49.' }
    )
    const ok = await start('groq')
    assert.deepEqual(ok.messages.map(messageText), ['Agent: 7 squared is 49.'])
    assert.equal(groq.requests[0].body.messages[1].content, 'What is 7 squared?')
    const toolAnswer = groq.requests[1].body.messages.find((m: any) => m.role === 'tool')
    assert.equal(toolAnswer.content, '49')
    assert.notInclude(
      (ok.logs ?? []).map((log) => log.status),
      'error'
    )

    groq.clear()
    const unsupported = await start('openai')
    assert.deepEqual(unsupported.messages.map(messageText), ['Agent: '])
    assert.deepEqual(
      (unsupported.logs ?? []).map((log) => [log.status, log.description]),
      [['error', 'LLM agent: Agent must be one of groq']]
    )
    assert.lengthOf(groq.requests, 0)
  })
})
