import logger from '@adonisjs/core/services/logger'
import CopilotMessage from '#models/copilot_message'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { planFor } from '#services/capabilities'
import { availabilityFor } from '#services/marketplace'
import { aiPort, AiCreditLimitExceededError } from '#services/ai/credits'
import { BlockedRequestError, RequestTimeoutError, createGuardedHttp } from '#plugins/guarded_http'
import {
  ModelUnreachableError,
  ProviderError,
  chatWithTools,
  type ChatMessage,
  type ToolCall,
} from '#sdk/ai'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { UpdateBot } from '#actions/bots/update_bot'
import { recordBotVersion, botSnapshotOf } from '#actions/bots/bot_history'
import { listCredentials } from '#services/credentials'
import { snapshotOf, toWorkflowJson } from '#dtos/workflow_dto'
import { toBotJson } from '#dtos/bot_dto'
import { COPILOT_TEXTS, isSendable, type CopilotReplyDto, type CopilotUsage } from '#shared/copilot'
import { UNLIMITED } from '#shared/plans'
import type { BotV6 } from '#shared/bot/types'
import type { WorkflowSnapshot } from '#shared/workflow/types'
import { catalogueOf, catalogueText } from '#services/copilot/catalogue'
import { copilotModel } from '#services/copilot/provider'
import { ToolRefusal, type CopilotAdapter, type ToolContext } from '#services/copilot/tools'
import { workflowAdapter } from '#services/copilot/workflow_adapter'
import { botAdapter } from '#services/copilot/bot_adapter'
import { credentialEgress } from '#services/egress'
import { copilotStarts, foldCopilotChange } from '#actions/coedit/coedit_hub'
import type { CoeditKind } from '#shared/coedit/protocol'
import {
  CopilotTarget,
  documentIdOf,
  conversationQuery,
  usageOf,
  addMessage,
  noteManualEdit,
  stateOf,
} from './copilot.js'

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

/** One reply is written at a time per builder and document: a message sent while one is pending is refused. */
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

/** The parts of a document the copilot changes (what saveChange saves). */
const COPILOT_FIELDS = {
  workflow: ['blocks', 'edges', 'variables'],
  bot: ['groups', 'edges', 'events', 'variables'],
} as const

function copilotPart(target: CopilotTarget, doc: Record<string, unknown>) {
  return Object.fromEntries(COPILOT_FIELDS[target.type].map((field) => [field, doc[field]]))
}

function coeditKindOf(target: CopilotTarget): CoeditKind {
  return target.type === 'workflow' ? 'workflows' : 'bots'
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
   * made. Failures answer in the chat with an apology and count nothing.
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

    // A shared draft: the copilot works on the merged draft the editors have, which may be
    // ahead of the one stored (edits of the last moment are written a little later).
    const kind = coeditKindOf(target)
    const shared = await copilotStarts(user, kind, documentIdOf(target))
    const start = shared
      ? { ...documentOf(target), ...copilotPart(target, shared) }
      : documentOf(target)
    const working: Working = { doc: start, changed: false, suggestions: [] }
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
    let coeditUpdate: string | null = null
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
    if (versionId && shared) {
      try {
        coeditUpdate = await foldCopilotChange(user, kind, documentIdOf(target), shared, {
          ...shared,
          ...copilotPart(target, working.doc),
        })
      } catch (error) {
        // Saved all the same: the editors get the change as a write made elsewhere.
        logger.warn({ err: error }, 'copilot: the change could not be folded into the shared draft')
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
    return { ...(await this.#reply(user, target, !!versionId)), coeditUpdate }
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
