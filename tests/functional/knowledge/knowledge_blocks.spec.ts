import { test } from '@japa/runner'
import { closeQueue, startWorkers } from '#queue/queue'
import { type VariableState } from '#services/runner_context'
import { startGroqStandIn } from '#tests/stand_ins/groq'
import { startAnthropicStandIn, type StandInMessageRequest } from '#tests/stand_ins/anthropic'
import { apiOwner, oneBlockBot, publishBot, resultLogs } from '../ai/provider_fixtures.js'
import { messageText } from '#engine/bot/engine'
import WorkflowRunNode from '#models/workflow_run_node'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { CreateCredential } from '#actions/credentials/create_credential'
import { insertCompiledWorkflow } from '#tests/agent_workflows'
import { addStore, storeWithText, HANDBOOK, run } from '#tests/functional/knowledge/knowledge_setup'

/**
 * Knowledge stores used from blocks (docs/knowledge.md, "From bots and workflows"): the
 * Vector store lookup plugin on both surfaces and the LLM agent's "search knowledge" tool.
 */

test.group('Knowledge stores in blocks', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('the lookup block saves the passages in a bot variable', async ({ assert }) => {
    const who = await storeWithText(HANDBOOK)
    const variables: VariableState[] = [
      { id: 'v-q', name: 'Question', value: 'How many holiday days?' },
      { id: 'v-docs', name: 'Docs' },
    ]
    const out = await run(
      'vector-store-lookup',
      'bot',
      {
        storeId: who.store.id,
        query: '{{Question}}',
        numberOfDocuments: 1,
        responseVariableId: 'v-docs',
      },
      who,
      variables
    )
    assert.deepEqual(out.variablesSet, [
      { id: 'v-docs', value: 'Employees get twenty-five days of paid holiday each year.' },
    ])
    assert.equal(out.logs[0].status, 'success')
    assert.equal(out.logs[0].description, 'Found 1 passage(s) in "Handbook"')
    assert.deepEqual((out.logs[0].details as any).sources, ['Holidays'])
  })

  test('the workflow node outputs the documents with sources and scores', async ({ assert }) => {
    const who = await storeWithText(HANDBOOK)
    const out = await run(
      'vector-store-lookup',
      'workflow',
      { storeId: who.store.id, query: 'travel expenses refunded car', numberOfDocuments: 2 },
      who
    )
    const output = (out.result as any).output
    assert.equal(output.mode, 'keyword')
    assert.lengthOf(output.documents, 2)
    assert.equal(output.documents[0].source, 'Expenses')
    assert.isAbove(output.documents[0].score, output.documents[1].score)
    assert.equal(
      output.text,
      output.documents.map((document: any) => document.content).join('\n\n')
    )
  })

  test('a store of another workspace is not found; no match is an empty text', async ({
    assert,
  }) => {
    const who = await storeWithText(HANDBOOK)
    const other = await storeWithText([{ name: 'Secret', text: 'The vault code is 1234.' }])
    const refused = await run(
      'vector-store-lookup',
      'bot',
      { storeId: other.store.id, query: 'vault' },
      who
    )
    assert.equal(refused.logs[0].status, 'error')
    assert.equal(
      refused.logs[0].description,
      'Vector store lookup: the knowledge store was not found in this workspace'
    )

    const none = await run(
      'vector-store-lookup',
      'bot',
      { storeId: who.store.id, query: 'submarine', responseVariableId: 'v-docs' },
      who,
      [{ id: 'v-docs', name: 'Docs' }]
    )
    assert.deepEqual(none.variablesSet, [{ id: 'v-docs', value: '' }])
    assert.equal(none.logs[0].description, 'No passage of "Handbook" matches the query')
  })

  test('the store picker lists the workspace stores', async ({ client, assert }) => {
    const who = await storeWithText([])
    const response = await client
      .post('/api/plugins/vector-store-lookup/fetchers/stores')
      .loginAs(who.user as any)
      .withCsrfToken()
      .accept('json')
      .json({ options: {} })
    response.assertStatus(200)
    assert.deepEqual(response.body().items, [{ value: who.store.id, label: 'Handbook' }])
  })

  test('the LLM agent searches the store as a tool and gets the sources', async ({ assert }) => {
    const who = await storeWithText(HANDBOOK)
    const groq = await startGroqStandIn({ apiKey: 'gsk_knowledge' })
    try {
      groq.reply(
        { toolCalls: [{ name: 'search_knowledge', arguments: { query: 'parking car park' } }] },
        { content: 'The car park opens at seven (source: Parking).' }
      )
      const variables: VariableState[] = [{ id: 'v-a', name: 'Answer' }]
      const out = await run(
        'llm-agent',
        'bot',
        {
          agent: 'groq',
          secretKey: 'gsk_knowledge',
          baseUrl: groq.baseUrl,
          userQuery: 'When does the car park open?',
          knowledgeStoreId: who.store.id,
          knowledgeDocuments: 1,
          responseMapping: [
            { item: 'Message content', variableId: 'v-a' },
            { item: 'Knowledge sources', variableId: 'v-s' },
          ],
        },
        who,
        [...variables, { id: 'v-s', name: 'Sources' }]
      )
      assert.deepEqual(out.variablesSet, [
        { id: 'v-a', value: 'The car park opens at seven (source: Parking).' },
        { id: 'v-s', value: ['Parking'] },
      ])
      const first = groq.requests[0].body
      const tool = first.tools.find((entry: any) => entry.function.name === 'search_knowledge')
      assert.deepEqual(tool.function.parameters.required, ['query'])
      const toolMessage = groq.requests[1].body.messages.find(
        (message: any) => message.role === 'tool'
      )
      assert.equal(
        toolMessage.content,
        '[1] Source: Parking\nThe car park opens at seven and closes at nine.'
      )
    } finally {
      await groq.close()
    }
  })

  test('the LLM agent workflow node outputs the passages it read with their sources', async ({
    assert,
  }) => {
    const who = await storeWithText(HANDBOOK)
    const groq = await startGroqStandIn({ apiKey: 'gsk_knowledge_node' })
    try {
      groq.reply(
        { toolCalls: [{ name: 'search_knowledge', arguments: { query: 'travel expenses' } }] },
        { content: 'Within ten days (source: Expenses).' }
      )
      const credential = await new CreateCredential().handle(who.user, who.workspace, {
        type: 'groq',
        name: 'Groq',
        data: { apiKey: 'gsk_knowledge_node', baseUrl: groq.baseUrl },
      })
      const blocks: WorkflowBlock[] = [
        { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
        {
          id: 'agent',
          type: 'llm-agent',
          graphCoordinates: { x: 300, y: 0 },
          options: {
            userQuery: 'When are expenses refunded?',
            knowledgeStoreId: who.store.id,
            knowledgeDocuments: 1,
          },
        },
        {
          id: 'model',
          type: 'groq',
          graphCoordinates: { x: 300, y: 200 },
          options: {
            action: 'Chat model',
            credentialsId: credential.id,
            model: 'llama-3.1-8b-instant',
          },
        },
      ]
      const edges: WorkflowEdge[] = [
        { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'agent' } },
        {
          id: 'a1',
          from: { blockId: 'agent' },
          to: { blockId: 'model' },
          isAttachment: true,
          attachmentName: 'model',
        },
      ]
      const workflow = await insertCompiledWorkflow({
        workspaceId: who.workspace.id,
        userId: who.user.id,
        name: 'Knowledge agent',
        blocks,
        edges,
      })
      const runId = await createRun(workflow, 'manual', {})
      await executeRun(runId)
      const agent = await WorkflowRunNode.query()
        .where('runId', runId)
        .where('nodeId', 'agent')
        .firstOrFail()
      assert.equal(agent.status, 'success', JSON.stringify(agent.logs))
      const output = agent.output as any
      assert.equal(output.output, 'Within ten days (source: Expenses).')
      assert.deepEqual(output.sources, ['Expenses'])
      assert.lengthOf(output.passages, 1)
      assert.include(output.passages[0], {
        store: 'Handbook',
        source: 'Expenses',
        content: 'Travel expenses are refunded within ten days of the claim.',
      })
      assert.isAbove(output.passages[0].score, 0)
      const toolMessage = groq.requests[1].body.messages.find(
        (message: any) => message.role === 'tool'
      )
      assert.equal(
        toolMessage.content,
        '[1] Source: Expenses\nTravel expenses are refunded within ten days of the claim.'
      )
    } finally {
      await groq.close()
    }
  })

  test('in a chat whose client streams, the Anthropic block with a store answers whole', async ({
    assert,
    client,
  }) => {
    const owner = await apiOwner()
    const store = await addStore(owner.user, owner.workspace, HANDBOOK)
    const anthropic = await startAnthropicStandIn({
      apiKey: 'sk-ant-chat',
      respond: (request: StandInMessageRequest) => {
        const last = request.messages.at(-1)!
        if (Array.isArray(last.content) && last.content[0]?.type === 'tool_result') {
          return { content: [{ type: 'text', text: 'It opens at seven.' }] }
        }
        return {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_chat',
              name: 'search_knowledge',
              input: { query: 'car park' },
            },
          ],
        }
      },
    })
    try {
      const credential = await new CreateCredential().handle(owner.user, owner.workspace, {
        type: 'anthropic',
        name: 'Claude',
        data: { apiKey: 'sk-ant-chat', baseUrl: anthropic.baseUrl },
      })
      const block = {
        type: 'anthropic',
        options: {
          action: 'Create Chat Message',
          credentialsId: credential.id,
          model: 'claude-3-haiku-20240307',
          messages: [{ role: 'user', content: '{{Question}}' }],
          knowledgeStores: [{ storeId: store.id }],
          knowledgeDocuments: 1,
          responseMapping: [
            { id: 'm1', item: 'Message Content', variableId: 'v_answer' },
            { id: 'm2', item: 'Knowledge sources', variableId: 'v_sources' },
          ],
        },
      }
      const publicId = await publishBot(
        client,
        owner,
        oneBlockBot(block, '{{Answer}} Sources: {{Sources}}', [
          { id: 'v_answer', name: 'Answer' },
          { id: 'v_sources', name: 'Sources' },
        ])
      )
      const start = await client
        .post(`/api/v1/typebots/${publicId}/startChat`)
        .json({ isStreamEnabled: true })
      start.assertStatus(200)
      const reply = await client
        .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
        .json({ message: 'When does the car park open?' })
      reply.assertStatus(200)
      // No stream pause: the bubble comes with the reply, the tool round done on the server.
      assert.notExists(reply.body().clientSideActions?.find((a: any) => a.type === 'stream'))
      assert.deepEqual(reply.body().messages.map(messageText), [
        'It opens at seven. Sources: Parking',
      ])
      const bodies = anthropic.messageBodies()
      assert.lengthOf(bodies, 2)
      assert.deepEqual(bodies[1].messages.at(-1)!.content, [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_chat',
          content: '[1] Source: Parking\nThe car park opens at seven and closes at nine.',
        },
      ])
      assert.deepInclude(await resultLogs(start.body().resultId), {
        status: 'info',
        description: 'The model read 1 passage(s) of the knowledge stores',
      })
    } finally {
      await anthropic.close()
    }
  })
})
