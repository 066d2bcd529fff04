import { test } from '@japa/runner'
import { pluginRegistry } from '#services/plugin_registry'
import { attachmentsOf, runNodeWith } from '#services/workflows/executor_ports'
import { buildContext, createVariableStore } from '#services/runner_context'
import { aiPort } from '#services/ai/credits'
import { createChatCompletion, type ChatModelFactory } from '#sdk/ai'
import type { NodeRunRequest } from '#engine/workflow/ports'
import type { WorkflowBlock } from '#shared/workflow/types'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { credentialsFor, newOwner, type Owner } from './openai_fixtures.js'

/**
 * Workflow Model nodes (openai-chat-model, groq-chat-model): what they lend an LLM agent
 * through the attachment ports, used against the stand-in as an agent would, and what they
 * do when run as a step of their own.
 */

const KEY = 'model-key'

function agentRequest(owner: Owner, modelType: string, modelOptions: Record<string, unknown>) {
  const agent: WorkflowBlock = {
    id: 'agent',
    type: 'llm-agent',
    graphCoordinates: { x: 0, y: 0 },
    options: {},
  }
  const model: WorkflowBlock = {
    id: 'model',
    type: modelType,
    graphCoordinates: { x: 0, y: 100 },
    options: modelOptions,
  }
  const request: NodeRunRequest = {
    workflow: {
      id: 'wf1',
      workspaceId: owner.workspace.id,
      ownerId: owner.user.id,
      executable: {
        blocks: [agent, model],
        edges: [
          {
            id: 'e1',
            from: { blockId: 'agent' },
            to: { blockId: 'model' },
            isAttachment: true,
            attachmentName: 'model',
          } as any,
        ],
        root_block: 'agent',
        wait_blocks: [],
      },
      settings: {},
      variables: [],
    },
    block: agent,
    variables: [{ id: 'vModel', name: 'Model', value: 'gpt-4o' }],
    signal: new AbortController().signal,
    context: {
      runId: 'run1',
      workflowId: 'wf1',
      node: { id: 'agent', type: 'llm-agent' },
      input: null,
      trigger: 'manual',
      attempt: 1,
      conditions: [],
      evaluateCondition: () => false,
    },
  }
  return request
}

function hostContext(owner: Owner) {
  const { store } = createVariableStore([])
  return buildContext(
    {
      plugin: { id: 'llm-agent' } as any,
      options: {},
      variables: [],
      workspaceId: owner.workspace.id,
      ownerId: owner.user.id,
    },
    {},
    {},
    store,
    [],
    aiPort({ ownerId: owner.user.id, workspaceId: owner.workspace.id, source: 'llm-agent' })
  )
}

for (const { type, credentialType } of [
  { type: 'openai-chat-model', credentialType: 'openai' },
  { type: 'groq-chat-model', credentialType: 'groq' },
]) {
  test.group(`${type}: Model node`, () => {
    test('lends an attached agent its endpoint, model and settings', async ({
      assert,
      cleanup,
    }) => {
      const standIn = await startOpenAiStandIn({ apiKey: KEY })
      cleanup(() => standIn.close())
      const owner = await newOwner()
      const credentialsId = await credentialsFor(owner, credentialType, {
        apiKey: KEY,
        baseUrl: standIn.baseUrl,
      })
      const registry = await pluginRegistry()
      const request = agentRequest(owner, type, {
        credentialsId,
        model: '{{Model}}',
        temperature: 0.2,
        topP: 0.9,
        maxTokens: 64,
      })
      const host = hostContext(owner)
      const [attached] = attachmentsOf(registry, request, host)
      assert.equal(attached.slot, 'model')
      const chatModel = await attached.exportOf<ChatModelFactory>('chatModel')
      const config = await chatModel!(await attached.context())
      // JSON drops the unset apiVersion of OpenAI endpoints.
      assert.deepEqual(JSON.parse(JSON.stringify(config)), {
        endpoint: { baseUrl: standIn.baseUrl, apiKey: KEY },
        model: 'gpt-4o',
        temperature: 0.2,
        topP: 0.9,
        maxTokens: 64,
      })

      // What an agent does with it: a chat completion against the stand-in.
      const completion = await createChatCompletion(host.http, config.endpoint, {
        model: config.model,
        messages: [{ role: 'user', content: 'Ping' }],
        temperature: config.temperature,
        top_p: config.topP,
        max_tokens: config.maxTokens,
      })
      assert.equal(completion.choices[0].message.content, 'Echo: Ping')
      const [call] = standIn.callsTo('/v1/chat/completions')
      assert.equal(call.headers.authorization, `Bearer ${KEY}`)
      assert.deepInclude(call.json, {
        model: 'gpt-4o',
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 64,
      })
    })

    test('without credentials or model the agent gets the missing-setting words', async ({
      assert,
    }) => {
      const owner = await newOwner()
      const registry = await pluginRegistry()
      const chatModel = await registry.exportOf<ChatModelFactory>(type, 'chatModel')
      const context = hostContext(owner)
      assert.throws(
        () => chatModel!({ ...context, options: { model: 'x' }, credentials: {} }),
        'No API key provided'
      )
      assert.throws(
        () => chatModel!({ ...context, options: { model: '' }, credentials: { apiKey: 'k' } }),
        'No model selected'
      )
    })

    test('run on its own, it logs that it only works attached to an agent', async ({ assert }) => {
      const owner = await newOwner()
      const registry = await pluginRegistry()
      // Filled as the editor leaves it: a node missing its required fields is refused first.
      const credentialsId = await credentialsFor(owner, credentialType, { apiKey: KEY })
      const request = agentRequest(owner, type, { credentialsId, model: 'some-model' })
      const model = request.workflow.executable.blocks![1]
      const outcome = await runNodeWith(registry, {
        ...request,
        block: model,
        context: { ...request.context, node: { id: 'model', type }, input: { kept: true } },
      })
      assert.deepEqual(
        outcome.logs.map((log) => [log.status, log.description]),
        [
          [
            'info',
            'A Model node only works attached to an LLM agent node (its Model slot): on its own it does nothing.',
          ],
        ]
      )
    })
  })
}
