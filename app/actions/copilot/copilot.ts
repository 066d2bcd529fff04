import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import CopilotMessage from '#models/copilot_message'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { planFor } from '#services/capabilities'
import { availabilityFor } from '#services/marketplace'
import { aiPort, AiCreditLimitExceededError } from '#services/ai/credits'
import { BlockedRequestError, RequestTimeoutError, createGuardedHttp } from '#plugins/guarded_http'
import { ModelUnreachableError } from '#plugins/ai/agent'
import { ProviderError } from '#plugins/ai/errors'
import { chatWithTools } from '#plugins/ai/openai_compatible'
import type { ChatMessage, ToolCall } from '#plugins/ai/messages'
import { UpdateWorkflow } from '#actions/workflows/workflows'
import { UpdateBot } from '#actions/bots/bots'
import { recordBotVersion, botSnapshotOf } from '#actions/bots/bot_history'
import { listCredentials } from '#actions/credentials/credentials'
import { snapshotOf, toWorkflowJson } from '#dtos/workflow_dto'
import { toBotJson } from '#dtos/bot_dto'
import { sameJson } from '#shared/history/diff'
import {
  BOT_MANUAL_UPDATE_NOTE,
  COPILOT_TEXTS,
  isSendable,
  type CopilotDocumentType,
  type CopilotMessageDto,
  type CopilotReplyDto,
  type CopilotStateDto,
  type CopilotUsage,
} from '#shared/copilot'
import { UNLIMITED } from '#shared/plans'
import type { BotV6 } from '#shared/bot/types'
import type { WorkflowSnapshot } from '#shared/workflow/types'
import { catalogueOf, catalogueText } from '#services/copilot/catalogue'
import { copilotCredentials, copilotModel } from '#services/copilot/provider'
import { ToolRefusal, type CopilotAdapter, type ToolContext } from '#services/copilot/tools'
import { workflowAdapter } from '#services/copilot/workflow_adapter'
import { botAdapter } from '#services/copilot/bot_adapter'
import { credentialEgress } from '#services/egress'

/**
 * The AI copilot (docs/copilot.md): a
 * conversation per builder and document in which the model answers from the plugin
 * catalogue and changes the document through tool calls. Every change the model makes in
 * one answer is saved once, through the same action as a builder's save (format, plan and
 * plugin checks), and kept as one 'assistant' version of the history, so it can be
 * previewed and undone.
 */

/** The target of a conversation: a workflow or a bot, loaded with write access. */
export type CopilotTarget =
  | { type: 'workflow'; workflow: Workflow; workspace: Workspace }
  | { type: 'bot'; bot: Bot; workspace: Workspace }

/** How many earlier messages go back to the model with a new one. */
const HISTORY_SENT = 20

/** Rounds of tool calls the model may make for one message. */

/**
 * What a builder can act on when the model call fails: the provider's own answer, a refused or
 * unreachable host, a timeout. Anything else (a bug, a database error) stays in the server log.
 */
function failureCause(error: unknown): string | null {
  let cause: string | null = null
  if (error instanceof ProviderError)
    cause = `the model server answered ${error.status}: ${error.message}`
  else if (
    error instanceof BlockedRequestError ||
    error instanceof RequestTimeoutError ||
    error instanceof ModelUnreachableError
  )
    cause = error.message
  else if (error instanceof AppError) cause = error.message
  return cause && cause.length > 500 ? `${cause.slice(0, 500)}…` : cause
}

const MAX_ROUNDS = 12

function documentIdOf(target: CopilotTarget) {
  return target.type === 'workflow' ? target.workflow.id : target.bot.id
}

function conversationQuery(user: User, target: CopilotTarget) {
  return CopilotMessage.query()
    .where('user_id', user.id)
    .where('document_type', target.type)
    .where('document_id', documentIdOf(target))
    .orderBy('id', 'asc')
}

/** The answered messages of the builder, everywhere: what userCopilotLimit counts. */
async function usedMessages(user: User): Promise<number> {
  const row = await db
    .from('copilot_messages')
    .where('user_id', user.id)
    .where('counted', true)
    .count('* as total')
    .first()
  return Number(row?.total ?? 0)
}

async function usageOf(user: User, workspace: Workspace) {
  const { plan } = await planFor(user, workspace)
  return { totalMessages: await usedMessages(user), messagesLimit: plan.limits.userCopilotLimit }
}

/** The greeting and the suggestions of an empty chat (our wording; spec: a greeting is added). */
const GREETINGS: Record<CopilotDocumentType, { text: string; suggestions: string[] }> = {
  workflow: {
    text: "Hi! I'm your copilot. Tell me what this workflow should do and I'll add, connect and configure its nodes. Each change I make is saved as a version you can preview or undo.",
    suggestions: [
      'Start this workflow from a webhook',
      'Which nodes can send a message?',
      'Add an HTTP request after the trigger',
    ],
  },
  bot: {
    text: "Hi! I'm your copilot. Tell me what this bot should do and I'll add, connect and configure its groups and blocks. Each change I make is saved as a version you can preview or undo.",
    suggestions: [
      'Greet visitors and ask for their e-mail',
      'Which blocks can collect an answer?',
      'Add a choice with Yes and No after the start',
    ],
  },
}

async function versionNames(messages: CopilotMessage[], type: CopilotDocumentType) {
  const ids = messages.map((message) => message.versionId).filter((id): id is string => !!id)
  if (ids.length === 0) return new Map<string, string>()
  const rows =
    type === 'workflow'
      ? await WorkflowVersion.query().whereIn('id', ids).select('id', 'version_name')
      : await BotVersion.query().whereIn('id', ids).select('id', 'version_name')
  return new Map(rows.map((row) => [row.id, row.versionName]))
}

function toDto(message: CopilotMessage, names: Map<string, string>): CopilotMessageDto {
  return {
    id: message.id,
    role: message.role,
    type: message.type,
    content: message.content,
    timestamp: message.createdAt.toISO()!,
    versionId: message.versionId,
    versionName: message.versionId ? (names.get(message.versionId) ?? null) : null,
    showVersionCard: message.showVersionCard,
    usage: message.usage,
  }
}

function addMessage(
  user: User,
  target: CopilotTarget,
  values: Partial<
    Pick<
      CopilotMessage,
      'role' | 'type' | 'content' | 'versionId' | 'showVersionCard' | 'counted' | 'usage'
    >
  >
) {
  return CopilotMessage.create({
    userId: user.id,
    workspaceId: target.workspace.id,
    documentType: target.type,
    documentId: documentIdOf(target),
    role: 'ASSISTANT',
    type: 'TEXT',
    content: '',
    versionId: null,
    showVersionCard: false,
    counted: false,
    usage: null,
    ...values,
  })
}

/** The content a copilot change is compared by, to see a builder's edit after it. */
function contentOf(target: CopilotTarget): unknown {
  if (target.type === 'workflow') {
    const { blocks, edges, variables } = target.workflow
    return { blocks, edges, variables }
  }
  const { groups, edges, events, variables } = target.bot
  return { groups, edges, events, variables }
}

async function versionContent(type: CopilotDocumentType, versionId: string): Promise<unknown> {
  if (type === 'workflow') {
    const version = await WorkflowVersion.find(versionId)
    if (!version) return undefined
    const { blocks, edges, variables } = version.workflow
    return { blocks, edges, variables }
  }
  const version = await BotVersion.find(versionId)
  if (!version) return undefined
  const { groups, edges, events, variables } = version.content as BotV6
  return { groups, edges, events, variables }
}

/**
 * After the first assistant change, a builder's own
 * edit adds the note 'Workflow manually updated by user.' (once per edit: the note is not
 * repeated until the copilot changes the document again).
 */
async function noteManualEdit(user: User, target: CopilotTarget, messages: CopilotMessage[]) {
  const note = target.type === 'workflow' ? COPILOT_TEXTS.manualUpdate : BOT_MANUAL_UPDATE_NOTE
  const lastChange = [...messages].reverse().find((message) => message.versionId)
  if (!lastChange) return messages
  const after = messages.slice(messages.indexOf(lastChange) + 1)
  if (after.some((message) => message.role === 'ASSISTANT' && message.content === note)) {
    return messages
  }
  const saved = await versionContent(target.type, lastChange.versionId!)
  if (saved === undefined || sameJson(saved, contentOf(target))) return messages
  return [...messages, await addMessage(user, target, { content: note })]
}

async function stateOf(
  user: User,
  target: CopilotTarget,
  messages: CopilotMessage[]
): Promise<CopilotStateDto> {
  const names = await versionNames(messages, target.type)
  return {
    messages: messages.map((message) => toDto(message, names)),
    usage: await usageOf(user, target.workspace),
    credentials: await copilotCredentials(await pluginRegistry(), user, target.workspace.id),
  }
}

export class ShowCopilotConversation {
  /** The conversation, greeted when empty and noted when the builder edited since. */
  async handle(user: User, target: CopilotTarget): Promise<CopilotStateDto> {
    let messages = await conversationQuery(user, target)
    if (messages.length === 0) {
      const greeting = GREETINGS[target.type]
      messages = [
        await addMessage(user, target, { content: greeting.text }),
        await addMessage(user, target, {
          type: 'SUGGESTION',
          content: '',
          usage: { suggestions: greeting.suggestions },
        }),
      ]
    } else {
      messages = await noteManualEdit(user, target, messages)
    }
    return stateOf(user, target, messages)
  }
}

/** One reply is written at a time per builder and document (spec: none sent while pending). */
const pending = new Set<string>()

function systemPrompt(adapter: CopilotAdapter<any>, catalogue: string, outline: unknown): string {
  const noun = adapter.surface === 'workflow' ? 'workflow' : 'bot'
  return [
    `You are the copilot of a visual ${noun} editor. You answer the builder's questions about the ${adapter.surface === 'workflow' ? 'node' : 'block'} types below, and you change the ${noun} only through the tools.`,
    adapter.surface === 'workflow'
      ? 'A workflow is nodes joined by edges; it starts from exactly one trigger node. Model and tool nodes plug into an agent node through its slots.'
      : 'A bot is groups of blocks; the start event and each block (or item of a choice or condition block) lead to a group through an edge.',
    'Call describe_node_type before setting fields, and use the ids the tools return. A refused call changes nothing: read the reason and try another way. Never invent credentials: name one the describe tool lists, or tell the builder to add one.',
    'When you are done, answer in a few plain sentences saying what you changed. You may offer follow-ups with suggest_replies.',
    '',
    `Types this editor offers (type | name | category | description):\n${catalogue}`,
    '',
    `The ${noun} now:\n${JSON.stringify(outline)}`,
  ].join('\n')
}

function toModelMessages(messages: CopilotMessage[]): ChatMessage[] {
  return messages
    .filter((message) => message.type === 'TEXT' && message.content)
    .slice(-HISTORY_SENT)
    .map((message) => ({
      role: message.role === 'USER' ? 'user' : 'assistant',
      content: message.content,
    }))
}

interface Working {
  doc: any
  changed: boolean
  suggestions: string[]
}

async function runModel(
  user: User,
  target: CopilotTarget,
  adapter: CopilotAdapter<any>,
  history: CopilotMessage[],
  credentialsId: string | null | undefined,
  working: Working
) {
  const registry = await pluginRegistry()
  const { plan } = await planFor(user, target.workspace)
  const availability = await availabilityFor(plan)
  const { config } = await copilotModel(registry, user, target.workspace.id, credentialsId)
  const credentials = (await listCredentials(user, target.workspace.id)).map((record) => ({
    id: record.id,
    name: record.name,
    type: record.type,
  }))
  const context: ToolContext = { registry, surface: adapter.surface, availability, credentials }
  const catalogue = catalogueText(catalogueOf(registry, adapter.surface, availability))
  const port = aiPort({ ownerId: user.id, workspaceId: target.workspace.id, source: 'copilot' })
  const result = await chatWithTools({
    http: createGuardedHttp(credentialEgress()),
    endpoint: config.endpoint,
    ai: port,
    maxRounds: MAX_ROUNDS,
    request: {
      model: config.model,
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
      messages: [
        { role: 'system', content: systemPrompt(adapter, catalogue, adapter.outline(working.doc)) },
        ...toModelMessages(history),
      ],
      tools: adapter.tools,
    },
    async execute(call: ToolCall) {
      let args: Record<string, unknown> = {}
      try {
        const parsed = JSON.parse(call.function.arguments || '{}')
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed
      } catch {
        return JSON.stringify({ error: 'The arguments must be a JSON object.' })
      }
      if (call.function.name === 'suggest_replies') {
        const replies = Array.isArray(args.replies) ? args.replies : []
        working.suggestions = replies
          .filter((reply): reply is string => typeof reply === 'string' && reply.trim() !== '')
          .map((reply) => reply.trim().slice(0, 200))
          .slice(0, 4)
        return JSON.stringify({ ok: true })
      }
      try {
        const outcome = await adapter.apply(working.doc, call.function.name, args, context)
        if (outcome.doc !== working.doc) {
          working.doc = outcome.doc
          working.changed = true
        }
        return JSON.stringify(outcome.result ?? { ok: true })
      } catch (error) {
        if (error instanceof ToolRefusal) return JSON.stringify({ refused: error.message })
        throw error
      }
    },
  })
  return result
}

/** Saves the copilot's document as the builder's save would, as one assistant version. */
async function saveChange(user: User, target: CopilotTarget, doc: any): Promise<string> {
  if (target.type === 'workflow') {
    const next = doc as WorkflowSnapshot
    await new UpdateWorkflow().handle(user, target.workspace, target.workflow, {
      blocks: next.blocks,
      edges: next.edges,
      variables: next.variables,
      updatedBy: 'assistant',
    })
    const version = await WorkflowVersion.query()
      .where('workflow_id', target.workflow.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .firstOrFail()
    return version.id
  }
  const bot = target.bot
  const next = doc as BotV6
  // The builder's work before the copilot's first change stays restorable.
  const any = await BotVersion.query().where('bot_id', bot.id).first()
  if (!any) await recordBotVersion(bot, user)
  await new UpdateBot().handle(
    bot,
    { groups: next.groups, edges: next.edges, events: next.events, variables: next.variables },
    { user, workspace: target.workspace },
    { kind: 'assistant' }
  )
  const version = await BotVersion.query()
    .where('bot_id', bot.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .firstOrFail()
  return version.id
}

function documentOf(target: CopilotTarget): WorkflowSnapshot | BotV6 {
  return target.type === 'workflow'
    ? snapshotOf(target.workflow)
    : ({ version: '6', ...structuredClone(botSnapshotOf(target.bot)) } as BotV6)
}

export class SendCopilotMessage {
  /**
   * The message is kept; the limit is checked; the
   * model answers (with tool calls); when the document changed, it is saved and a version
   * made. Failures answer in the chat with the spec's words and count nothing.
   */
  async handle(
    user: User,
    target: CopilotTarget,
    input: { content: string; credentialsId?: string | null }
  ): Promise<CopilotReplyDto> {
    if (!isSendable(input.content)) {
      throw new AppError('Empty message', { status: 422, field: 'content' })
    }
    const key = `${user.id}:${target.type}:${documentIdOf(target)}`
    if (pending.has(key)) {
      throw new AppError('A reply is still being written', {
        status: 409,
        code: 'E_COPILOT_PENDING',
        description: 'Wait for the copilot to answer before sending another message.',
      })
    }
    pending.add(key)
    try {
      return await this.#send(user, target, input)
    } finally {
      pending.delete(key)
    }
  }

  async #send(
    user: User,
    target: CopilotTarget,
    input: { content: string; credentialsId?: string | null }
  ): Promise<CopilotReplyDto> {
    const adapter: CopilotAdapter<any> = target.type === 'workflow' ? workflowAdapter : botAdapter
    const registry = await pluginRegistry()
    // A missing provider is refused before anything is kept: the builder has to add one.
    await copilotModel(registry, user, target.workspace.id, input.credentialsId)

    let history = await conversationQuery(user, target)
    history = await noteManualEdit(user, target, history)
    const message = await addMessage(user, target, {
      role: 'USER',
      content: input.content.trim(),
    })
    history.push(message)

    const usage = await usageOf(user, target.workspace)
    if (usage.messagesLimit !== UNLIMITED && usage.totalMessages >= usage.messagesLimit) {
      await addMessage(user, target, { content: COPILOT_TEXTS.limitExceeded })
      return this.#reply(user, target, false)
    }

    const working: Working = { doc: documentOf(target), changed: false, suggestions: [] }
    let answer: string
    let replyUsage: CopilotUsage
    try {
      const result = await runModel(user, target, adapter, history, input.credentialsId, working)
      const content = result.message.content
      answer = typeof content === 'string' ? content.trim() : ''
      replyUsage = {
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
      }
    } catch (error) {
      logger.warn({ err: error }, 'copilot: the model call failed')
      const cause = failureCause(error)
      const text =
        error instanceof AiCreditLimitExceededError
          ? 'You have no AI credits left: the copilot cannot answer until credits are added.'
          : cause
            ? `${COPILOT_TEXTS.failure}\n\nCause: ${cause}`
            : COPILOT_TEXTS.failure
      await addMessage(user, target, { content: text })
      return this.#reply(user, target, false)
    }

    let versionId: string | null = null
    let refusal: string | null = null
    if (working.changed) {
      try {
        versionId = await saveChange(user, target, working.doc)
      } catch (error) {
        // The same checks as a builder's save (plan, plugins, format) refused the whole change.
        if (!(error instanceof AppError)) throw error
        refusal = [error.message, (error as AppError & { description?: string }).description]
          .filter(Boolean)
          .join(': ')
      }
    }
    message.counted = true
    await message.save()
    await addMessage(user, target, {
      content: refusal
        ? `I could not apply these changes: ${refusal}`
        : answer || (versionId ? 'Done.' : 'I have nothing to add.'),
      versionId,
      showVersionCard: !!versionId,
      usage: replyUsage,
    })
    if (working.suggestions.length > 0) {
      await addMessage(user, target, {
        type: 'SUGGESTION',
        usage: { suggestions: working.suggestions },
      })
    }
    return this.#reply(user, target, !!versionId)
  }

  async #reply(user: User, target: CopilotTarget, isUpdated: boolean): Promise<CopilotReplyDto> {
    const messages = await conversationQuery(user, target)
    const state = await stateOf(user, target, messages)
    if (!isUpdated) return { ...state, isUpdated, document: null }
    const document =
      target.type === 'workflow'
        ? toWorkflowJson(await Workflow.findOrFail(target.workflow.id))
        : toBotJson(await Bot.findOrFail(target.bot.id))
    return { ...state, isUpdated, document }
  }
}
