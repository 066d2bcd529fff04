import transmit from '@adonisjs/transmit/services/main'
import logger from '@adonisjs/core/services/logger'
import type User from '#models/user'
import Workspace from '#models/workspace'
import { findBotFor } from '#actions/bots/bot_access'
import { botIssues } from '#actions/bots/publish_bot'
import { workflowIssues } from '#actions/workflows/publish_workflow'
import { UpdateBot } from '../bots/update_bot.js'
import { findWorkflowFor } from '#actions/workflows/workflow_access'
import { withCanonicalTypes } from '#actions/workflows/workflow_plugins'
import { pluginRegistry } from '#services/plugin_registry'
import { UpdateWorkflow } from '../workflows/update_workflow.js'
import { BOT_FORMAT_VERSION, migrateBot } from '#shared/bot/migrate'
import type { BotV6 } from '#shared/bot/types'
import type { UserMode } from '#shared/workspace_roles'
import type { BlockIssue } from '#shared/block_issues'
import { encodeBase64 } from '#shared/coedit/mirror'
import {
  COPILOT_CLIENT_ID,
  COPILOT_COLOR,
  documentChannel,
  personChannel,
  type CoeditKind,
  type CoeditMessage,
  type DraftMeta,
} from '#shared/coedit/protocol'
import {
  appendUpdate,
  foldChange,
  joinDocument,
  sharedDraftOf,
  writeMergedDraft,
  type DraftTarget,
} from '#services/coedit/shared_drafts'

/**
 * Co-editing's server side (docs/editor.md "Editing together"): who may join a shared draft,
 * the relay of its updates and presence through transmit (the Redis transport carries them
 * to every web process in scaled mode), and the merged draft written back a moment after
 * the last update, through the same actions as the editors' saves.
 */

/**
 * The merged draft is written this long after the first update not written yet: one write
 * for many updates, and never later than this behind, even while people keep typing.
 */
const WRITE_DELAY_MS = 300

interface OpenedDraft {
  target: DraftTarget
  mode: UserMode
  workspaceId: string
  write: (draft: Record<string, unknown>) => Promise<number>
  /** The draft's issues as stored now (what the editors mark on blocks and nodes). */
  issues: () => Promise<BlockIssue[]>
  /** A workflow's status as stored now (its header shows it). */
  meta?: () => DraftMeta
}

/** The bot's draft as its editor shows it: v6, an older stored version migrated. */
function botDraft(bot: Awaited<ReturnType<typeof findBotFor>>['bot']) {
  const stored = {
    version: bot.version,
    name: bot.name,
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
  } as unknown as BotV6
  const content = bot.version === BOT_FORMAT_VERSION ? stored : migrateBot(stored)
  return {
    name: bot.name,
    groups: content.groups,
    events: content.events,
    edges: content.edges,
    variables: content.variables,
    theme: content.theme,
    settings: content.settings,
    selectedThemeTemplateId: bot.selectedThemeTemplateId ?? null,
  }
}

/**
 * Opens a shared draft for a user, with the same rules as the REST routes: a draft they may
 * not see is "not found" (ids do not leak), a draft they may only view refuses `write`.
 */
export async function openDraft(
  user: User,
  kind: CoeditKind,
  id: string,
  need: 'read' | 'write'
): Promise<OpenedDraft> {
  if (kind === 'bots') {
    const { bot, mode } = await findBotFor(user, id, need)
    return {
      mode,
      workspaceId: bot.workspaceId,
      target: { kind, id, revision: bot.revision, draft: () => botDraft(bot) },
      async write(draft) {
        const workspace = await Workspace.findOrFail(bot.workspaceId)
        await new UpdateBot().handle(bot, draft as never, { user, workspace })
        return bot.revision
      },
      issues: () => botIssues(botDraft(bot).groups),
    }
  }
  const { workflow, mode } = await findWorkflowFor(user, id, need)
  const registry = await pluginRegistry()
  return {
    mode,
    workspaceId: workflow.workspaceId,
    target: {
      kind,
      id,
      revision: workflow.revision,
      draft: () => ({
        name: workflow.name,
        // As the editor's page shows it: nodes stored under a folded plugin's former id
        // under its id (the shared state would otherwise bring the old id back).
        blocks: withCanonicalTypes(workflow.blocks, registry),
        edges: workflow.edges,
        variables: workflow.variables,
        settings: workflow.settings,
      }),
    },
    async write(draft) {
      const workspace = await Workspace.findOrFail(workflow.workspaceId)
      await new UpdateWorkflow().handle(user, workspace, workflow, draft as never)
      return workflow.revision
    },
    issues: () => workflowIssues(workflow.blocks),
    meta: () => ({
      status: workflow.status,
      isActive: !!workflow.isActive,
      publishedAt: workflow.publishedAt?.toISO() ?? null,
      updatedAt: workflow.updatedAt.toISO()!,
    }),
  }
}

/** Channel authorisation: anyone who may open the draft may listen (guests too, read-only). */
export async function mayListenToDraft(user: User | undefined, kind: string, id: string) {
  if (!user || (kind !== 'bots' && kind !== 'workflows')) return false
  try {
    await openDraft(user, kind, id, 'read')
    return true
  } catch {
    return false
  }
}

function broadcast(kind: CoeditKind, id: string, message: CoeditMessage) {
  transmit.broadcast(documentChannel(kind, id), message as never)
}

function broadcastFolded(kind: CoeditKind, id: string, by: 'copilot' | 'elsewhere') {
  return (update: Uint8Array) =>
    broadcast(kind, id, { type: 'update', update: encodeBase64(update), clientId: null, by })
}

/** The merged state for an editor joining: one Yjs update. */
export async function joinDraft(opened: OpenedDraft) {
  const { kind, id } = opened.target
  return joinDocument(opened.target, broadcastFolded(kind, id, 'elsewhere'))
}

const pendingWrites = new Map<string, ReturnType<typeof setTimeout>>()

/** Writes the merged draft soon; updates arriving meanwhile go with that write. */
function scheduleWrite(user: User, kind: CoeditKind, id: string) {
  const key = `${kind}:${id}`
  if (pendingWrites.has(key)) return
  pendingWrites.set(
    key,
    setTimeout(() => {
      pendingWrites.delete(key)
      void writeNow(user, kind, id)
    }, WRITE_DELAY_MS)
  )
}

/** Writes the merged draft now; the writer's access is checked again, as of now. */
async function writeNow(user: User, kind: CoeditKind, id: string) {
  try {
    await writeAndTell(await openDraft(user, kind, id, 'write'))
  } catch (error) {
    logger.warn({ err: error, kind, id }, 'co-editing: the merged draft could not be written')
  }
}

/**
 * Writes the merged draft (when updates arrived since the last write) and tells every editor
 * of it the draft's issues as stored now: the marks on blocks and nodes follow the shared
 * draft as they followed a save's answer. Answers the revision and the issues.
 */
export async function writeAndTell(opened: OpenedDraft) {
  const { kind, id } = opened.target
  const key = `${kind}:${id}`
  const scheduled = pendingWrites.get(key)
  if (scheduled) {
    // This write takes the updates the scheduled one was waiting for.
    clearTimeout(scheduled)
    pendingWrites.delete(key)
  }
  let revision = opened.target.revision
  await writeMergedDraft(
    opened.target,
    async (draft) => {
      revision = await opened.write(draft)
      return revision
    },
    broadcastFolded(kind, id, 'elsewhere')
  )
  const issues = await opened.issues()
  const meta = opened.meta?.()
  broadcast(kind, id, { type: 'issues', issues, revision, ...(meta ? { meta } : {}) })
  return { revision, issues, ...(meta ? { meta } : {}) }
}

/** An editor's update: kept, relayed to the draft's other editors, written soon. */
export async function receiveUpdate(
  user: User,
  opened: OpenedDraft,
  update: Uint8Array,
  clientId: string,
  by: 'person' | 'copilot'
) {
  const { kind, id } = opened.target
  await appendUpdate(kind, id, update)
  broadcast(kind, id, { type: 'update', update: encodeBase64(update), clientId, by })
  scheduleWrite(user, kind, id)
}

export function relayPresence(
  user: User,
  kind: CoeditKind,
  id: string,
  clientId: string,
  state: Extract<CoeditMessage, { type: 'presence' }>['state'],
  color: string
) {
  broadcast(kind, id, {
    type: 'presence',
    clientId,
    userId: user.id,
    name: user.name || user.email,
    color,
    state,
  })
}

/**
 * A member removed from a workspace: their open editors of its drafts close at once (their
 * next request would be refused anyway).
 */
export function disconnectMember(workspaceId: string, userId: string) {
  transmit.broadcast(personChannel(userId), { type: 'revoked', workspaceId })
}

/**
 * The copilot in a shared draft (docs/editor.md "The copilot in a shared draft"): it works
 * on the merged draft the editors have (null when the draft was never shared), and shows in
 * their headers as a participant while it does.
 */
export async function copilotStarts(user: User, kind: CoeditKind, id: string) {
  const opened = await openDraft(user, kind, id, 'write')
  const draft = await sharedDraftOf(opened.target, broadcastFolded(kind, id, 'elsewhere'))
  if (draft) copilotPresence(kind, id)
  return draft
}

function copilotPresence(kind: CoeditKind, id: string) {
  broadcast(kind, id, {
    type: 'presence',
    clientId: COPILOT_CLIENT_ID,
    userId: COPILOT_CLIENT_ID,
    name: 'Copilot',
    color: COPILOT_COLOR,
    state: {},
    copilot: true,
  })
}

/**
 * The copilot's change, saved (as its own version) from `base` to `next`, reaches every open
 * editor as one update marked as the copilot's, and the merged draft is written at once.
 * Answers that update (base64) for the editor that asked, or null when there is none (the
 * draft is not shared, or the change had been folded in already as a write made elsewhere).
 */
export async function foldCopilotChange(
  user: User,
  kind: CoeditKind,
  id: string,
  base: Record<string, unknown>,
  next: Record<string, unknown>
): Promise<string | null> {
  // Opened again: its revision is the copilot's save's.
  const opened = await openDraft(user, kind, id, 'write')
  const update = await foldChange(opened.target, base, next)
  copilotPresence(kind, id)
  const encoded = update ? encodeBase64(update) : null
  if (encoded)
    broadcast(kind, id, { type: 'update', update: encoded, clientId: null, by: 'copilot' })
  // Edits typed while the copilot worked are in the document, not yet in the saved draft.
  await writeAndTell(await openDraft(user, kind, id, 'write'))
  return encoded
}
