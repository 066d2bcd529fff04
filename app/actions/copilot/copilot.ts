import db from '@adonisjs/lucid/services/db'
import CopilotMessage from '#models/copilot_message'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import Bot from '#models/bot'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { pluginRegistry } from '#services/plugin_registry'
import { planFor } from '#services/capabilities'
import { sameJson } from '#shared/history/diff'
import {
  BOT_MANUAL_UPDATE_NOTE,
  COPILOT_TEXTS,
  type CopilotDocumentType,
  type CopilotMessageDto,
  type CopilotStateDto,
} from '#shared/copilot'
import type { BotV6 } from '#shared/bot/types'
import { copilotCredentials } from '#services/copilot/provider'

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

export function documentIdOf(target: CopilotTarget) {
  return target.type === 'workflow' ? target.workflow.id : target.bot.id
}

export function conversationQuery(user: User, target: CopilotTarget) {
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

export async function usageOf(user: User, workspace: Workspace) {
  const { plan } = await planFor(user, workspace)
  return { totalMessages: await usedMessages(user), messagesLimit: plan.limits.userCopilotLimit }
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

export function addMessage(
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
export async function noteManualEdit(
  user: User,
  target: CopilotTarget,
  messages: CopilotMessage[]
) {
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

export async function stateOf(
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
