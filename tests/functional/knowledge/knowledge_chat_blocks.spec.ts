import { test } from '@japa/runner'
import { type VariableState } from '#services/runner_context'
import { closeQueue, startWorkers } from '#queue/queue'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { startMistralStandIn } from '#tests/stand_ins/mistral'
import { startAnthropicStandIn, type StandInMessageRequest } from '#tests/stand_ins/anthropic'
import { botContext } from '../ai/provider_fixtures.js'
import { CreateCredential } from '#actions/credentials/create_credential'
import AiUsage from '#models/ai_usage'
import { storeWithText, HANDBOOK, run } from '#tests/functional/knowledge/knowledge_setup'

test.group('Knowledge stores in AI chat blocks', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a chat completion block searches its knowledge stores as a tool and saves the sources', async ({
    assert,
  }) => {
    const who = await storeWithText(HANDBOOK)
    const other = await storeWithText([{ name: 'Secret', text: 'Car park codes are secret.' }])
    const openai = await startOpenAiStandIn({
      apiKey: 'sk-chat',
      toolArguments: { query: 'car park opening' },
    })
    try {
      const credential = await new CreateCredential().handle(who.user, who.workspace, {
        type: 'openai',
        name: 'OpenAI',
        data: { apiKey: 'sk-chat', baseUrl: openai.baseUrl },
      })
      const variables: VariableState[] = [
        { id: 'v-answer', name: 'Answer' },
        { id: 'v-sources', name: 'Sources' },
      ]
      const out = await run(
        'openai',
        'bot',
        {
          action: 'Create chat completion',
          credentialsId: credential.id,
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'When does the car park open?' }],
          // A store of another workspace is not searched: the tool says so for it.
          knowledgeStores: [{ storeId: who.store.id }, { storeId: other.store.id }],
          knowledgeDocuments: 1,
          responseMapping: [
            { item: 'Message content', variableId: 'v-answer' },
            { item: 'Knowledge sources', variableId: 'v-sources' },
          ],
        },
        who,
        variables
      )
      const value = (id: string) => out.variablesSet.find((entry) => entry.id === id)?.value
      assert.equal(
        value('v-answer'),
        'Tool said: [1] Source: Parking\nThe car park opens at seven and closes at nine.'
      )
      assert.deepEqual(value('v-sources'), ['Parking'])
      const [first, second] = openai.callsTo('/v1/chat/completions')
      assert.equal(first.json.tools[0].function.name, 'search_knowledge')
      assert.deepEqual(first.json.tools[0].function.parameters.required, ['query'])
      assert.equal(second.json.messages.at(-1).role, 'tool')
      assert.include(
        out.logs.map((log) => log.description),
        'The model read 1 passage(s) of the knowledge stores'
      )
      // Two chat rounds charged to the block's owner.
      const usages = await AiUsage.query().where('accountId', who.user.id)
      assert.lengthOf(usages, 2)
    } finally {
      await openai.close()
    }
  })
  test('a Mistral chat block searches its knowledge stores too', async ({ assert }) => {
    const who = await storeWithText(HANDBOOK)
    // First the model asks for the tool, then it answers with what the tool gave.
    const mistral = await startMistralStandIn({
      apiKey: 'mistral-key',
      respond: (request) => {
        const last = request.messages.at(-1)!
        if (last.role === 'tool') return { content: `Tool said: ${String(last.content)}` }
        return {
          content: '',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: 'search_knowledge',
                arguments: JSON.stringify({ query: 'car park opening' }),
              },
            },
          ],
        }
      },
    })
    try {
      const credential = await new CreateCredential().handle(who.user, who.workspace, {
        type: 'mistral',
        name: 'Mistral',
        data: { apiKey: 'mistral-key', baseUrl: mistral.baseUrl },
      })
      const out = await run(
        'mistral',
        'bot',
        {
          action: 'Create chat completion',
          credentialsId: credential.id,
          model: 'mistral-small-latest',
          messages: [{ role: 'user', content: 'When does the car park open?' }],
          knowledgeStores: [{ storeId: who.store.id }],
          knowledgeDocuments: 1,
          responseMapping: [
            { item: 'Message content', variableId: 'v-answer' },
            { item: 'Knowledge sources', variableId: 'v-sources' },
          ],
        },
        who,
        [
          { id: 'v-answer', name: 'Answer' },
          { id: 'v-sources', name: 'Sources' },
        ]
      )
      const value = (id: string) => out.variablesSet.find((entry) => entry.id === id)?.value
      assert.equal(
        value('v-answer'),
        'Tool said: [1] Source: Parking\nThe car park opens at seven and closes at nine.'
      )
      assert.deepEqual(value('v-sources'), ['Parking'])
      const [first, second] = mistral.chatBodies()
      assert.equal(first.tools![0].function.name, 'search_knowledge')
      assert.notEqual((first as any).stream, true)
      assert.equal(second.messages.at(-1)!.role, 'tool')
    } finally {
      await mistral.close()
    }
  })

  test('an Anthropic chat block searches its knowledge stores with tool_use / tool_result', async ({
    assert,
  }) => {
    const who = await storeWithText(HANDBOOK)
    const other = await storeWithText([{ name: 'Secret', text: 'Car park codes are secret.' }])
    // Claude asks for the tool first, then answers with what the tool_result gave it.
    const anthropic = await startAnthropicStandIn({
      apiKey: 'sk-ant-knowledge',
      respond: (request: StandInMessageRequest) => {
        const last = request.messages.at(-1)!
        const result = Array.isArray(last.content)
          ? last.content.find((block: any) => block.type === 'tool_result')
          : undefined
        if (result) return { content: [{ type: 'text', text: `Tool said: ${result.content}` }] }
        return {
          content: [
            { type: 'text', text: 'Let me look that up.' },
            {
              type: 'tool_use',
              id: 'toolu_knowledge_1',
              name: 'search_knowledge',
              input: { query: 'car park opening' },
            },
          ],
        }
      },
    })
    try {
      const credential = await new CreateCredential().handle(who.user, who.workspace, {
        type: 'anthropic',
        name: 'Claude',
        data: { apiKey: 'sk-ant-knowledge', baseUrl: anthropic.baseUrl },
      })
      const out = await run(
        'anthropic',
        'bot',
        {
          action: 'Create Chat Message',
          credentialsId: credential.id,
          model: 'claude-3-haiku-20240307',
          messages: [{ role: 'user', content: 'When does the car park open?' }],
          // A store of another workspace is not searched: the tool says so for it.
          knowledgeStores: [{ storeId: who.store.id }, { storeId: other.store.id }],
          knowledgeDocuments: 1,
          responseMapping: [
            { item: 'Message Content', variableId: 'v-answer' },
            { item: 'Knowledge sources', variableId: 'v-sources' },
          ],
        },
        who,
        [
          { id: 'v-answer', name: 'Answer' },
          { id: 'v-sources', name: 'Sources' },
        ],
        // The visitor's client streams: a block with a knowledge store still answers whole.
        botContext('anthropic', 'v-answer')
      )
      assert.isUndefined(out.result)
      const value = (id: string) => out.variablesSet.find((entry) => entry.id === id)?.value
      const passage = '[1] Source: Parking\nThe car park opens at seven and closes at nine.'
      assert.equal(value('v-answer'), `Tool said: ${passage}`)
      assert.deepEqual(value('v-sources'), ['Parking'])

      const [first, second] = anthropic.messageBodies()
      assert.lengthOf(anthropic.messageBodies(), 2)
      assert.notEqual(first.stream, true)
      assert.deepEqual(first.tools, [
        {
          name: 'search_knowledge',
          description:
            'Search the knowledge base for passages that answer a question. Returns numbered passages, each with its source; cite the sources you use.',
          input_schema: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'What to look for, in a few words' },
            },
            required: ['query'],
          },
        },
      ])
      // The assistant turn with the tool_use goes back, then the passages as its tool_result.
      assert.deepEqual(second.messages.at(-2), {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look that up.' },
          {
            type: 'tool_use',
            id: 'toolu_knowledge_1',
            name: 'search_knowledge',
            input: { query: 'car park opening' },
          },
        ],
      })
      assert.deepEqual(second.messages.at(-1), {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_knowledge_1', content: passage }],
      })
      assert.include(
        out.logs.map((log) => log.description),
        'The model read 1 passage(s) of the knowledge stores'
      )
      // Both rounds charged to the block's owner.
      const usages = await AiUsage.query().where('accountId', who.user.id)
      assert.lengthOf(usages, 2)
    } finally {
      await anthropic.close()
    }
  })

  test('an Anthropic block mixes its function tools with the knowledge tool', async ({
    assert,
  }) => {
    const who = await storeWithText(HANDBOOK)
    const anthropic = await startAnthropicStandIn({
      apiKey: 'sk-ant-knowledge',
      respond: (request: StandInMessageRequest) => {
        const results = (request.messages.at(-1)!.content as any[]).filter?.(
          (block: any) => block.type === 'tool_result'
        )
        if (results?.length) {
          return {
            content: [
              { type: 'text', text: results.map((block: any) => block.content).join(' | ') },
            ],
          }
        }
        return {
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'getWeather', input: { city: 'Paris' } },
            {
              type: 'tool_use',
              id: 'toolu_b',
              name: 'search_knowledge',
              input: { query: 'holiday days' },
            },
          ],
        }
      },
    })
    try {
      const credential = await new CreateCredential().handle(who.user, who.workspace, {
        type: 'anthropic',
        name: 'Claude',
        data: { apiKey: 'sk-ant-knowledge', baseUrl: anthropic.baseUrl },
      })
      const out = await run(
        'anthropic',
        'bot',
        {
          action: 'Create Chat Message',
          credentialsId: credential.id,
          model: 'claude-3-haiku-20240307',
          messages: [{ role: 'user', content: 'Weather and holidays?' }],
          tools: [
            {
              name: 'getWeather',
              parameters: [{ name: 'city', type: 'string', required: true }],
              code: 'return city + " is sunny"',
            },
          ],
          knowledgeStores: [{ storeId: who.store.id }],
          knowledgeDocuments: 1,
          responseMapping: [
            { item: 'Message Content', variableId: 'v-answer' },
            { item: 'Knowledge sources', variableId: 'v-sources' },
          ],
        },
        who,
        [
          { id: 'v-answer', name: 'Answer' },
          { id: 'v-sources', name: 'Sources' },
        ]
      )
      const value = (id: string) => out.variablesSet.find((entry) => entry.id === id)?.value
      assert.equal(
        value('v-answer'),
        'Paris is sunny | [1] Source: Holidays\nEmployees get twenty-five days of paid holiday each year.'
      )
      assert.deepEqual(value('v-sources'), ['Holidays'])
      const [first] = anthropic.messageBodies()
      assert.deepEqual(
        first.tools!.map((tool) => tool.name),
        ['getWeather', 'search_knowledge']
      )
    } finally {
      await anthropic.close()
    }
  })
})
