import type { Block, Group } from '#shared/bot/types'
import type {
  ChatInput,
  ChatLog,
  ChatMessage,
  ChatReply,
  ClientSideAction,
  TextBubbleContentFormat,
  TextMessageContent,
} from '#shared/chat/types'
import { richTextToPlainText } from '#shared/chat/rich_text'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import { resolveTheme, resolveSettings } from '#shared/bot/types'
import {
  LANGUAGE_VARIABLE,
  languagesOf,
  matchLanguage,
  pickLanguage,
  tableOf,
  translateBlock,
  type LanguageWishes,
} from '#shared/bot/translations'
import { substituteDeep, formatVariableValue } from '#plugins/substitute'
import type {
  BotRunContext,
  BotRunResult,
  InputAnswer,
  LogEntry,
  RunnerBlock,
  TranscriptEntry,
} from '#plugins/define_plugin'
import { DEFAULT_LOOP_MAX_ITERATIONS } from '../loops.js'
import { evaluateCondition } from './conditions.js'
import type { EngineBot, EnginePorts } from './ports.js'
import {
  TRANSCRIPT_LIMIT,
  type EngineVariable,
  type EngineVariableValue,
  type QueuedBot,
  type RepeatFrame,
  type ResumePoint,
  type SessionState,
} from './state.js'

/**
 * The chat engine (docs/architecture.md): a pure function of (bot, session state, incoming
 * message) giving (reply, new state, effects to persist). It walks from the start event,
 * collects bubbles, stops at inputs, validates answers through the input plugins, follows
 * block, item and event edges, and calls every block's runner through the ports.
 */

/**
 * Block visits per turn before the engine decides the flow loops without input. A loop
 * iteration (BotRunResult.repeat) starts a fresh count: loops are bounded by their own
 * iteration count (maxLoopIterations), not by the size of their list.
 */
export const MAX_BLOCK_VISITS = 500

export const LOOP_ERRORS = {
  tooManyIterations: (max: number) =>
    `The flow was stopped after ${max} loop iterations in one turn (LOOP_MAX_ITERATIONS)`,
  repeatedBlockGone: 'The block repeating this path no longer exists in this bot',
}

export const DEFAULT_RETRY_MESSAGE = 'Invalid message. Please, try again.'

export interface AnswerRecord {
  resultId: string
  blockId: string
  groupId: string
  variableId?: string
  content: string
  attachedFileUrls?: string[]
}

export interface ResultUpdate {
  botId: string
  variables: { id: string; name: string; value: EngineVariableValue }[]
  hasStarted?: boolean
  isCompleted?: boolean
  /** The chat's language, for bots in several languages. */
  language?: string
}

/** An input left without an answer past its reply timeout: its "No reply" exit was taken. */
export interface TimeoutRecord {
  resultId: string
  blockId: string
  groupId: string
}

export interface TurnEffects {
  answers: AnswerRecord[]
  /** Reply timeouts taken this turn, for results and drop-off analytics. */
  timeouts: TimeoutRecord[]
  logs: (ChatLog & { resultId: string })[]
  /** Per result id: its variables now, and what changed in its flags. */
  results: Map<string, ResultUpdate>
  /** Results created this turn (linked bots that do not merge their results). */
  newResults: { id: string; botId: string }[]
}

export interface TurnOutput {
  reply: ChatReply
  state: SessionState
  effects: TurnEffects
}

export interface StartInput {
  bot: EngineBot
  sessionId: string
  resultId?: string
  prefilledVariables?: Record<string, unknown>
  textBubbleContentFormat?: TextBubbleContentFormat
  isPreview?: boolean
  startFrom?: SessionState['startFrom']
  source?: string
  isOnlyRegistering?: boolean
  /** Answers the first input straight away (messaging channels, API clients). */
  message?: InputAnswer
  allowedOrigins?: string[]
  expiryTimeout?: number
  contact?: BotRunContext['contact']
  /** The client can stream answers (StartChatRequest.isStreamEnabled). */
  isStreamEnabled?: boolean
  /** The time of the turn (epoch ms), for reply timeout deadlines; Date.now() without it. */
  now?: number
  /**
   * What the visitor asked for (request or URL, Accept-Language); a prefilled `language`
   * variable is read from the prefilled variables. Bots in one language ignore it.
   */
  languageWishes?: Omit<LanguageWishes, 'variable'>
}

export interface ContinueInput {
  state: SessionState
  sessionId: string
  /** The bot at the head of the session's queue (the caller loads it, usually cached). */
  bot: EngineBot
  message?: InputAnswer
  textBubbleContentFormat?: TextBubbleContentFormat
  contact?: BotRunContext['contact']
  /** The time of the turn (epoch ms), for reply timeout deadlines; Date.now() without it. */
  now?: number
}

type Position = { group: Group; index: number }

function cloneVariables(variables: readonly EngineVariable[]): EngineVariable[] {
  return variables.map((v) => ({ ...v }))
}

function prefill(variables: EngineVariable[], values: Record<string, unknown> | undefined) {
  if (!values) return
  for (const [name, value] of Object.entries(values)) {
    const variable = variables.find((v) => v.name === name || v.id === name)
    if (!variable) continue
    variable.value = Array.isArray(value)
      ? value.map((item) => formatVariableValue(item))
      : value === null || value === undefined
        ? null
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value)
  }
}

/**
 * What a result keeps of the chat's variables: every one holding a value, as Results, the CSV
 * and the results API show them. A variable the editor's picker created is flagged
 * isSessionVariable; the flag travels with the bot format but hides nothing, since
 * builders set variables precisely to see them beside the answers.
 */
export function resultVariablesOf<V>(
  variables: readonly { id: string; name: string; value?: V | null }[]
): { id: string; name: string; value: V }[] {
  return variables
    .filter((v) => v.value !== undefined && v.value !== null)
    .map(({ id, name, value }) => ({ id, name, value: value as V }))
}

export function textContent(text: string, format: TextBubbleContentFormat): TextMessageContent {
  return format === 'markdown'
    ? { type: 'markdown', markdown: text }
    : {
        type: 'richText',
        richText: text.split('\n').map((line) => ({ type: 'p', children: [{ text: line }] })),
      }
}

/** The plain text of a message, for transcripts. */
export function messageText(message: ChatMessage): string {
  switch (message.type) {
    case 'text':
      return message.content.type === 'markdown'
        ? message.content.markdown
        : richTextToPlainText(message.content.richText)
    case 'image':
    case 'video':
    case 'audio':
    case 'embed':
      return message.content.url ?? ''
    default:
      return ''
  }
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Whether a text bubble's content shows {{name}} (rich text, plain text, html or markdown). */
export function textBubbleMentions(content: unknown, name: string): boolean {
  if (!content || typeof content !== 'object') return false
  const record = content as Record<string, unknown>
  const texts: string[] = []
  if (Array.isArray(record.richText)) texts.push(richTextToPlainText(record.richText as any))
  for (const key of ['plainText', 'html', 'markdown']) {
    if (typeof record[key] === 'string') texts.push(record[key] as string)
  }
  const pattern = new RegExp(`\\{\\{\\s*${escapeRegExp(name)}\\s*\\}\\}`)
  return texts.some((text) => pattern.test(text))
}

/**
 * A bot's groups and edges by id. A published bot's content is one object turn after turn
 * (bot_cache.ts) and never changes, so it is indexed once; the turn's walk looked each edge
 * and group up with a scan, several times per block.
 */
const indexes = new WeakMap<object, { groups: Map<string, Group>; edges: Map<string, Edge> }>()

type Edge = EngineBot['content']['edges'][number]

function indexOf(content: EngineBot['content']) {
  let index = indexes.get(content)
  if (!index) {
    index = { groups: new Map(), edges: new Map() }
    // The first of a duplicated id wins, as the scans it replaces found it.
    for (const group of content.groups)
      if (!index.groups.has(group.id)) index.groups.set(group.id, group)
    for (const edge of content.edges) if (!index.edges.has(edge.id)) index.edges.set(edge.id, edge)
    indexes.set(content, index)
  }
  return index
}

class Turn {
  readonly messages: ChatMessage[] = []
  readonly actions: ClientSideAction[] = []
  readonly logs: ChatLog[] = []
  readonly effects: TurnEffects = {
    answers: [],
    timeouts: [],
    logs: [],
    results: new Map(),
    newResults: [],
  }
  input?: ChatInput
  /** A block stopped because the owner's AI credits are used up (shown to the visitor). */
  aiCreditLimitExceeded = false
  private visits = 0
  private iterations = 0

  constructor(
    readonly state: SessionState,
    readonly ports: EnginePorts,
    readonly sessionId: string,
    public bot: EngineBot,
    readonly contact?: BotRunContext['contact'],
    readonly now: number = Date.now()
  ) {}

  get current(): QueuedBot {
    return this.state.botsQueue[0]
  }

  get variables(): EngineVariable[] {
    return this.current.variables
  }

  // -- records --------------------------------------------------------------

  log(entry: LogEntry) {
    const log: ChatLog = { status: entry.status, description: entry.description }
    if (entry.details !== undefined) log.details = entry.details
    this.logs.push(log)
    if (this.current.resultId) this.effects.logs.push({ ...log, resultId: this.current.resultId })
  }

  touchResult(): ResultUpdate | undefined {
    const id = this.current.resultId
    if (!id) return undefined
    let update = this.effects.results.get(id)
    if (!update) {
      update = { botId: this.current.botId, variables: [] }
      this.effects.results.set(id, update)
    }
    update.variables = resultVariablesOf(this.variables)
    const language = this.language()
    if (language) update.language = language
    return update
  }

  /**
   * The language the bot speaks now: a `language` variable naming one of the bot's
   * languages (set by a block or a choice mid-chat), else the one picked at the start.
   */
  language(): string | undefined {
    const languages = languagesOf(this.bot.content.settings)
    if (!languages) return undefined
    const available = [languages.default, ...languages.others]
    const variable = this.variables.find((v) => v.name.toLowerCase() === LANGUAGE_VARIABLE)
    const chosen = matchLanguage(variable?.value, available)
    if (chosen) this.state.language = chosen
    return matchLanguage(this.state.language, available) ?? languages.default
  }

  /** The block with its texts in the chat's language (the default where none is written). */
  translated(block: Block): Block {
    return translateBlock(block, tableOf(this.bot.content.settings, this.language()))
  }

  /** Counted once per result: the chat starts with the visitor's first answer or message. */
  markStarted() {
    const id = this.current.resultId
    if (!id) return
    const started = (this.state.startedResultIds ??= [])
    if (started.includes(id)) return
    const update = this.touchResult()
    if (!update) return
    started.push(id)
    update.hasStarted = true
  }

  setVariable(id: string | undefined, value: EngineVariableValue) {
    if (!id) return
    const variable = this.variables.find((v) => v.id === id)
    if (!variable) return
    variable.value = value
    this.touchResult()
  }

  private pushTranscript(entry: TranscriptEntry) {
    const transcript = this.state.transcript
    transcript.push(entry)
    if (transcript.length > TRANSCRIPT_LIMIT)
      transcript.splice(0, transcript.length - TRANSCRIPT_LIMIT)
  }

  addMessage(message: ChatMessage) {
    this.messages.push(message)
    this.pushTranscript({ role: 'bot', type: message.type, text: messageText(message) })
  }

  addAction(action: ClientSideAction) {
    const last = this.messages.at(-1)
    this.actions.push(
      last && !action.lastBubbleBlockId ? { ...action, lastBubbleBlockId: last.id } : action
    )
  }

  // -- graph ----------------------------------------------------------------

  private groupById(id: string) {
    return indexOf(this.bot.content).groups.get(id)
  }

  resolve(point: ResumePoint): Position | undefined {
    if ('edgeId' in point) {
      const edge = indexOf(this.bot.content).edges.get(point.edgeId)
      if (!edge) return undefined
      const group = this.groupById(edge.to.groupId)
      if (!group) return undefined
      const index = edge.to.blockId ? group.blocks.findIndex((b) => b.id === edge.to.blockId) : 0
      return { group, index: Math.max(index, 0) }
    }
    const group = this.groupById(point.groupId)
    return group ? { group, index: point.blockIndex } : undefined
  }

  /** Where the flow goes after a block that did not choose an edge itself. */
  pointAfter(group: Group, index: number, block: Block): ResumePoint | null {
    if (block.outgoingEdgeId) return { edgeId: block.outgoingEdgeId }
    if (index + 1 < group.blocks.length) return { groupId: group.id, blockIndex: index + 1 }
    return null
  }

  startPoint(startFrom?: SessionState['startFrom']): ResumePoint | null {
    const content = this.bot.content
    if (startFrom?.type === 'group') return { groupId: startFrom.groupId, blockIndex: 0 }
    const event =
      startFrom?.type === 'event'
        ? content.events.find((e) => e.id === startFrom.eventId)
        : (content.events.find((e) => e.type === 'start') ?? content.events[0])
    return event?.outgoingEdgeId ? { edgeId: event.outgoingEdgeId } : null
  }

  /**
   * End of a path: the block repeating it (a loop) runs again, else back to the bot that
   * linked this one, else the end of the chat.
   */
  private async endOfPath(): Promise<ResumePoint | RepeatFrame | null> {
    for (;;) {
      const frame = this.current.repeats?.pop()
      if (frame) return frame
      if (this.state.botsQueue.length <= 1) break
      const child = this.state.botsQueue.shift()!
      const parent = this.current
      // Variables of the same name flow back to the parent.
      for (const variable of child.variables) {
        const target = parent.variables.find((v) => v.name === variable.name)
        if (target && variable.value !== undefined) target.value = variable.value
      }
      const parentBot = await this.ports.loadBot(parent.botId, this.bot)
      if (!parentBot) {
        this.log({ status: 'error', description: 'The bot that linked this one is gone' })
        break
      }
      this.bot = parentBot
      this.touchResult()
      if (child.resumeParentAt) return child.resumeParentAt
    }
    this.state.isCompleted = true
    const update = this.touchResult()
    if (update) update.isCompleted = true
    return null
  }

  /**
   * The frame of a block reached while it repeats a path: the path led back to it, which
   * ends the iteration as the path's end would (frames of loops inside it end too).
   */
  private takeFrame(blockId: string): RepeatFrame | undefined {
    const frames = this.current.repeats
    const index = frames?.findIndex((frame) => frame.blockId === blockId) ?? -1
    return index < 0 ? undefined : frames!.splice(index)[0]
  }

  // -- running blocks -------------------------------------------------------

  private botContext(block: Block, group: Group, items?: RunnerBlock['items']): BotRunContext {
    return {
      block: {
        id: block.id,
        type: block.type,
        groupId: group.id,
        outgoingEdgeId: block.outgoingEdgeId,
        items: items ?? (block.items as RunnerBlock['items']),
      },
      botId: this.bot.id,
      sessionId: this.sessionId,
      resultId: this.current.resultId,
      isPreview: this.state.isPreview,
      environment: this.state.source,
      textBubbleContentFormat: this.state.textBubbleContentFormat,
      transcript: () => this.state.transcript.slice(),
      evaluateCondition: (condition) => evaluateCondition(condition as any, this.variables),
      contact: this.contact,
      appUrl: this.ports.appUrl,
      canStreamTo: (variableId) => this.canStreamTo(block, group, variableId),
    }
  }

  /**
   * Whether a block's answer may be streamed into `variableId`: the client asked for
   * streaming and the block that runs next is a bubble that shows streamed text
   * (`showsStreamedText`) and mentions that variable (so the streamed text is what the
   * visitor would read anyway).
   */
  private canStreamTo(block: Block, group: Group, variableId: string | undefined): boolean {
    if (!this.state.isStreamEnabled || !variableId) return false
    const variable = this.variables.find((v) => v.id === variableId)
    if (!variable) return false
    const index = group.blocks.findIndex((candidate) => candidate.id === block.id)
    if (index < 0) return false
    const after = this.pointAfter(group, index, block)
    const position = after ? this.resolve(after) : undefined
    const next = position?.group.blocks[position.index]
    if (!next || !this.ports.showsStreamedText(next.type)) return false
    return textBubbleMentions(next.content, variable.name)
  }

  private applyResult(result: BotRunResult | void, variablesSet: { id: string; value: any }[]) {
    for (const { id, value } of variablesSet) this.setVariable(id, value)
    if (!result) return
    for (const { id, value } of result.variablesToSet ?? []) this.setVariable(id, value)
    for (const entry of result.logs ?? []) this.log(entry)
    for (const message of result.messages ?? []) {
      this.addMessage({ ...(message as ChatMessage), id: message.id ?? this.ports.newId() })
    }
    for (const action of result.clientSideActions ?? []) this.addAction(action as ClientSideAction)
  }

  /**
   * Runs one block. Returns the runner's result, or 'skip' when the block cannot run
   * (unknown or disabled type: logged, and the flow goes on as if it were not there).
   */
  private async run(original: Block, group: Group, resumeWith?: unknown, frame?: RepeatFrame) {
    const block = this.translated(original)
    const category = this.ports.categoryOf(block.type)
    if (!category) {
      this.log({
        status: 'error',
        description: `Unknown block type "${block.type}"`,
        details: { blockId: block.id },
      })
      return { kind: 'skip' as const }
    }
    if (!(await this.ports.isAllowed(block.type, this.bot))) {
      this.log({
        status: 'error',
        description: `Block not available on your plan: ${block.type}`,
        details: { blockId: block.id },
      })
      return { kind: 'skip' as const }
    }
    const items = block.items?.length
      ? (substituteDeep(block.items, this.variables).value as RunnerBlock['items'])
      : undefined
    const context = this.botContext(block, group, items)
    if (resumeWith !== undefined) context.resumeWith = resumeWith
    if (frame) context.repeated = { state: frame.state }
    const outcome = await this.ports.runBlock({
      bot: this.bot,
      block,
      groupId: group.id,
      variables: this.variables,
      context,
    })
    for (const entry of outcome.logs) this.log(entry)
    if (outcome.aiCreditLimitExceeded) this.aiCreditLimitExceeded = true
    this.applyResult(outcome.result, outcome.variablesSet)
    return {
      kind: 'ran' as const,
      category,
      result: outcome.result || undefined,
      options: outcome.options,
      items,
    }
  }

  private askInput(
    block: Block,
    group: Group,
    options: Record<string, unknown>,
    result: BotRunResult | undefined,
    items: RunnerBlock['items']
  ) {
    const asked = result?.input
    const input: ChatInput = {
      id: block.id,
      type: block.type,
      options: asked?.options ?? options,
    }
    const shownItems = asked?.items ?? items
    if (shownItems) input.items = shownItems as ChatInput['items']
    if (asked?.runtimeOptions) input.runtimeOptions = asked.runtimeOptions
    const settings = resolveSettings(this.bot.content.settings)
    const variableId =
      typeof input.options.variableId === 'string' ? input.options.variableId : undefined
    if (settings.general?.isInputPrefillEnabled && variableId) {
      const value = this.variables.find((v) => v.id === variableId)?.value
      if (value !== undefined && value !== null && value !== '')
        input.prefilledValue = formatVariableValue(value)
    }
    const seconds = timeoutSecondsOf(block)
    if (seconds !== undefined) input.timeout = { seconds }
    this.input = input
    this.state.awaiting = { blockId: block.id, groupId: group.id, kind: 'input', input }
    if (seconds !== undefined) {
      this.state.awaiting.timeout = { seconds, deadline: this.now + seconds * 1000 }
    }
  }

  /** Walks from a point until an input, a pause, the end, or the visit bound. */
  async walk(from: ResumePoint | null): Promise<void> {
    let next: ResumePoint | null = from
    let resuming: RepeatFrame | undefined
    this.state.awaiting = undefined
    for (;;) {
      if (!next) {
        const end = await this.endOfPath()
        if (!end) return
        if ('blockId' in end) {
          const group = this.groupById(end.groupId)
          const blockIndex = group ? group.blocks.findIndex((b) => b.id === end.blockId) : -1
          if (!group || blockIndex < 0) {
            this.log({ status: 'error', description: LOOP_ERRORS.repeatedBlockGone })
            continue
          }
          resuming = end
          next = { groupId: group.id, blockIndex }
        } else {
          next = end
        }
      }
      const position = this.resolve(next)
      next = null
      if (!position) continue
      const { group } = position
      for (let index = position.index; index < group.blocks.length; index++) {
        const block = group.blocks[index]
        if (++this.visits > MAX_BLOCK_VISITS) {
          this.log({
            status: 'error',
            description: `The flow was stopped after ${MAX_BLOCK_VISITS} blocks without an answer (a loop?)`,
            details: { blockId: block.id, groupId: group.id },
          })
          return
        }
        const frame = resuming?.blockId === block.id ? resuming : this.takeFrame(block.id)
        resuming = undefined
        const after = this.pointAfter(group, index, block)
        const outcome = await this.run(block, group, undefined, frame)
        if (outcome.kind === 'skip') {
          next = after
          break
        }
        const { result, category } = outcome
        if (category === 'input' && !result?.skipInput) {
          this.askInput(block, group, outcome.options, result, outcome.items)
          return
        }
        if (result?.pause) {
          const awaitsWebhook = (result.clientSideActions ?? []).some(
            (action: any) => action?.type === 'listenForWebhook'
          )
          const last = this.actions.at(-1)
          if (last && !awaitsWebhook) last.expectsDedicatedReply = true
          const streams = (result.clientSideActions ?? []).some(
            (action: any) => action?.type === 'stream'
          )
          this.state.awaiting = {
            blockId: block.id,
            groupId: group.id,
            kind: 'pause',
            saveReplyInVariableId: result.saveReplyInVariableId,
            awaitsWebhook: awaitsWebhook || undefined,
            streams: streams || undefined,
          }
          this.state.webhookPayload = undefined
          return
        }
        if (result?.repeat) {
          const max = this.ports.maxLoopIterations ?? DEFAULT_LOOP_MAX_ITERATIONS
          if (++this.iterations > max) {
            this.log({
              status: 'error',
              description: LOOP_ERRORS.tooManyIterations(max),
              details: { blockId: block.id, groupId: group.id },
            })
            return
          }
          const frames = (this.current.repeats ??= [])
          frames.push({ blockId: block.id, groupId: group.id, state: result.repeat.state })
          this.visits = 0
          next = { edgeId: result.repeat.outgoingEdgeId }
          break
        }
        if (result?.jump) {
          const target = this.groupById(result.jump.groupId)
          if (!target) {
            this.log({ status: 'error', description: 'Jump: the target group does not exist' })
          } else {
            if (after) this.current.returnMarks.push(after)
            const blockIndex = result.jump.blockId
              ? Math.max(
                  target.blocks.findIndex((b) => b.id === result.jump!.blockId),
                  0
                )
              : 0
            next = { groupId: target.id, blockIndex }
            break
          }
        }
        if (result?.returnFromJump) {
          next = this.current.returnMarks.pop() ?? after
          break
        }
        if (result?.link) {
          const linked = await this.link(result.link, after)
          if (linked !== undefined) {
            next = linked
            break
          }
        }
        if (result?.outgoingEdgeId) {
          next = { edgeId: result.outgoingEdgeId }
          break
        }
        if (result?.endPath) break
        if (block.outgoingEdgeId) {
          next = { edgeId: block.outgoingEdgeId }
          break
        }
      }
    }
  }

  /** Starts a linked bot; returns where to go on, or undefined when the link failed. */
  private async link(
    link: NonNullable<BotRunResult['link']>,
    after: ResumePoint | null
  ): Promise<ResumePoint | null | undefined> {
    const targetId = link.botId === 'current' ? this.bot.id : link.botId
    const linked =
      targetId === this.bot.id ? this.bot : await this.ports.loadBot(targetId, this.bot)
    if (!linked) {
      this.log({
        status: 'error',
        description: 'Bot link: the linked bot was not found or is not published',
        details: { botId: link.botId },
      })
      return undefined
    }
    const parent = this.current
    const variables = cloneVariables(linked.content.variables)
    for (const variable of variables) {
      const source = parent.variables.find((v) => v.name === variable.name)
      if (source && source.value !== undefined && source.value !== null)
        variable.value = source.value
    }
    const merge = link.mergeResults !== false
    let resultId = parent.resultId
    if (!merge && parent.resultId) {
      resultId = this.ports.newId()
      this.effects.newResults.push({ id: resultId, botId: linked.id })
    }
    this.state.botsQueue.unshift({
      botId: linked.id,
      publishedAt: linked.publishedAt,
      workspaceId: linked.workspaceId,
      resultId,
      isMergingWithParent: merge,
      variables,
      resumeParentAt: after,
      returnMarks: [],
    })
    this.bot = linked
    if (link.groupId) {
      if (!linked.content.groups.some((g) => g.id === link.groupId)) {
        this.log({
          status: 'error',
          description: 'Bot link: the group does not exist in the linked bot',
        })
      } else {
        return { groupId: link.groupId, blockIndex: 0 }
      }
    }
    return this.startPoint()
  }

  /** The awaited block with the context its runner had (for streaming its answer). */
  awaitedBlock() {
    const awaiting = this.state.awaiting
    if (!awaiting) return undefined
    const group =
      this.groupById(awaiting.groupId) ??
      this.bot.content.groups.find((g) => g.blocks.some((b) => b.id === awaiting.blockId))
    const found = group?.blocks.find((b) => b.id === awaiting.blockId)
    if (!group || !found) return undefined
    const block = this.translated(found)
    const items = block.items?.length
      ? (substituteDeep(block.items, this.variables).value as RunnerBlock['items'])
      : undefined
    return { block, groupId: group.id, context: this.botContext(block, group, items) }
  }

  /** Handles the visitor's answer to the awaited input. */
  async answer(message: InputAnswer | undefined): Promise<void> {
    const awaiting = this.state.awaiting
    if (!awaiting) return
    const group =
      this.groupById(awaiting.groupId) ??
      this.bot.content.groups.find((g) => g.blocks.some((b) => b.id === awaiting.blockId))
    const index = group ? group.blocks.findIndex((b) => b.id === awaiting.blockId) : -1
    if (!group || index < 0) {
      this.log({ status: 'error', description: 'The awaited block no longer exists in this bot' })
      this.state.awaiting = undefined
      return this.walk(null)
    }
    const block = group.blocks[index]

    if (awaiting.kind === 'pause') {
      if (awaiting.awaitsWebhook) {
        if (this.state.webhookPayload === undefined) {
          // Still waiting: the block announces its URL again and nothing moves.
          const outcome = await this.run(block, group)
          if (outcome.kind === 'ran' && outcome.result?.pause) return
        } else {
          const payload = this.state.webhookPayload
          this.state.webhookPayload = undefined
          await this.run(block, group, payload)
        }
      } else if (awaiting.saveReplyInVariableId && message) {
        this.setVariable(awaiting.saveReplyInVariableId, message.text)
      }
      this.state.awaiting = undefined
      return this.walk(this.pointAfter(group, index, block))
    }

    if (!message) {
      // Nothing to parse: ask again without a retry message.
      this.input = awaiting.input
      return
    }
    const input = awaiting.input ?? { id: block.id, type: block.type, options: block.options ?? {} }
    const context = this.botContext(block, group, input.items as RunnerBlock['items'])
    const { parsed, logs } = await this.ports.parseAnswer({
      bot: this.bot,
      block,
      groupId: group.id,
      variables: this.variables,
      context,
      input,
      answer: message,
    })
    for (const entry of logs) this.log(entry)
    if (parsed.status === 'fail') {
      const retry =
        typeof input.options.retryMessageContent === 'string' &&
        input.options.retryMessageContent.trim()
          ? input.options.retryMessageContent
          : DEFAULT_RETRY_MESSAGE
      this.addMessage({
        id: this.ports.newId(),
        type: 'text',
        content: textContent(retry, this.state.textBubbleContentFormat),
      })
      this.input = input
      // The visitor is there: the question's reply timeout starts again from the retry.
      const timeout = awaiting.timeout
      if (timeout) timeout.deadline = this.now + timeout.seconds * 1000
      return
    }

    this.pushTranscript({ role: 'user', type: 'text', text: parsed.value })
    this.state.answeredCount += 1
    const variableId =
      typeof input.options.variableId === 'string' ? input.options.variableId : undefined
    if (variableId) this.setVariable(variableId, parsed.variableValue ?? parsed.value)
    if (this.current.resultId) {
      this.effects.answers.push({
        resultId: this.current.resultId,
        blockId: block.id,
        groupId: group.id,
        variableId,
        content: parsed.value,
        attachedFileUrls: parsed.attachedFileUrls ?? message.attachedFileUrls,
      })
      this.touchResult()
      this.markStarted()
    }
    this.state.awaiting = undefined
    // Answered: the question is no longer pending in this turn's reply.
    this.input = undefined
    const next = parsed.outgoingEdgeId
      ? { edgeId: parsed.outgoingEdgeId }
      : this.pointAfter(group, index, block)
    return this.walk(next)
  }

  /**
   * The awaited input got no answer in time: the turn takes the block's "No reply" exit
   * (the end of the path when it leads nowhere) and records the timeout for the result.
   * 'early' before the deadline, 'stale' when the session no longer awaits that question
   * (answered meanwhile, or asked again with a new deadline).
   */
  async timeout(expected?: { blockId: string; deadline?: number }): Promise<TimeoutStatus> {
    const awaiting = this.state.awaiting
    const timeout = awaiting?.kind === 'input' ? awaiting.timeout : undefined
    if (!awaiting || !timeout) return { status: 'stale' }
    if (expected && expected.blockId !== awaiting.blockId) return { status: 'stale' }
    if (expected?.deadline !== undefined && expected.deadline !== timeout.deadline)
      return { status: 'stale' }
    if (this.now < timeout.deadline)
      return { status: 'early', remainingMs: timeout.deadline - this.now }
    const group =
      this.groupById(awaiting.groupId) ??
      this.bot.content.groups.find((g) => g.blocks.some((b) => b.id === awaiting.blockId))
    const block = group?.blocks.find((b) => b.id === awaiting.blockId)
    this.state.awaiting = undefined
    if (!group || !block) {
      this.log({ status: 'error', description: 'The awaited block no longer exists in this bot' })
      await this.walk(null)
      return { status: 'taken' }
    }
    this.log({
      status: 'info',
      description: `No reply within ${timeout.seconds} s: the "No reply" path was taken`,
      details: { blockId: block.id, groupId: group.id, seconds: timeout.seconds },
    })
    if (this.current.resultId) {
      this.effects.timeouts.push({
        resultId: this.current.resultId,
        blockId: block.id,
        groupId: group.id,
      })
    }
    const edgeId = block.timeout?.outgoingEdgeId
    await this.walk(edgeId ? { edgeId } : null)
    return { status: 'taken' }
  }

  /**
   * A message sent with the start: it answers the first input only when the visitor would
   * have seen nothing before it (no bubble, no client-side action awaiting a reply (actions
   * that only run, like a wait, stay in the reply), an input that shows no
   * content of its own), and the reply is then what follows the answer. Otherwise the
   * question has not been seen yet and the message is not taken (docs/migrating-from-typebot.md).
   */
  async answerOpening(message: InputAnswer): Promise<void> {
    const awaiting = this.state.awaiting
    if (!awaiting || awaiting.kind !== 'input' || !awaiting.input) return
    if (this.messages.length > 0) return
    if (this.actions.some((action) => action.expectsDedicatedReply)) return
    if (this.ports.showsContent?.(awaiting.input.type)) return
    await this.answer(message)
  }

  /** 0-100: answers given over answers given plus the inputs still reachable. */
  progress(): number | undefined {
    const theme = resolveTheme(this.bot.content.theme)
    if (!theme.general?.progressBar?.isEnabled) return undefined
    if (this.state.isCompleted && !this.state.awaiting) return 100
    const remaining = this.remainingInputs()
    const answered = this.state.answeredCount
    const total = answered + remaining
    return total === 0 ? 0 : Math.round((answered / total) * 100)
  }

  private remainingInputs(): number {
    const awaiting = this.state.awaiting
    if (!awaiting) return 0
    const content = this.bot.content
    const edges = new Map(content.edges.map((e) => [e.id, e]))
    const seen = new Set<string>()
    let count = 0
    const queue: string[] = [awaiting.groupId]
    let first = true
    while (queue.length > 0 && seen.size < 1000) {
      const groupId = queue.shift()!
      if (seen.has(groupId)) continue
      seen.add(groupId)
      const group = this.groupById(groupId)
      if (!group) continue
      const start = first
        ? Math.max(
            group.blocks.findIndex((b) => b.id === awaiting.blockId),
            0
          )
        : 0
      first = false
      for (const block of group.blocks.slice(start)) {
        if (this.ports.categoryOf(block.type) === 'input') count++
        const edgeIds = [block.outgoingEdgeId, ...(block.items ?? []).map((i) => i.outgoingEdgeId)]
        for (const id of edgeIds) {
          const edge = id ? edges.get(id) : undefined
          if (edge) queue.push(edge.to.groupId)
        }
      }
    }
    return count
  }

  output(): TurnOutput {
    const reply: ChatReply = { messages: this.messages }
    if (this.input) reply.input = this.input
    if (this.actions.length > 0) reply.clientSideActions = this.actions
    if (this.state.isPreview && this.logs.length > 0) reply.logs = this.logs
    if (this.aiCreditLimitExceeded) reply.aiCreditLimitExceededError = AI_CREDIT_LIMIT_EXCEEDED_TEXT
    const progress = this.progress()
    if (progress !== undefined) reply.progress = progress
    return { reply, state: this.state, effects: this.effects }
  }
}

/**
 * What the bot's settings ask of the page it is shown on, for the first reply's
 * "inject start props" action: its Google Tag Manager container. Null when none.
 */
export function startPropsOf(bot: EngineBot): { gtmId: string } | null {
  const gtmId = String(
    (bot.content.settings as { metadata?: { googleTagManagerId?: unknown } } | undefined)?.metadata
      ?.googleTagManagerId ?? ''
  ).trim()
  return /^GTM-[A-Z0-9]+$/i.test(gtmId) ? { gtmId } : null
}

function prefilledLanguage(values: Record<string, unknown> | undefined) {
  if (!values) return undefined
  const key = Object.keys(values).find((name) => name.toLowerCase() === LANGUAGE_VARIABLE)
  return key ? values[key] : undefined
}

/** Starts a chat: a new state, the walk from the start (or from startFrom in preview). */
export async function startChat(ports: EnginePorts, input: StartInput): Promise<TurnOutput> {
  const variables = cloneVariables(input.bot.content.variables)
  prefill(variables, input.prefilledVariables)
  const state: SessionState = {
    version: '3',
    botsQueue: [
      {
        botId: input.bot.id,
        publishedAt: input.bot.publishedAt,
        workspaceId: input.bot.workspaceId,
        resultId: input.resultId,
        variables,
        resumeParentAt: null,
        returnMarks: [],
      },
    ],
    textBubbleContentFormat: input.textBubbleContentFormat ?? 'richText',
    isPreview: Boolean(input.isPreview),
    source: input.source ?? 'web',
    answeredCount: 0,
    transcript: [],
    allowedOrigins: input.allowedOrigins,
    expiryTimeout: input.expiryTimeout,
    startFrom: input.startFrom,
  }
  if (input.isStreamEnabled) state.isStreamEnabled = true
  const language = pickLanguage(input.bot.content.settings, {
    ...input.languageWishes,
    variable: prefilledLanguage(input.prefilledVariables),
  })
  if (language) {
    state.language = language
    // The chat's language is readable (and changeable) as the `language` variable.
    const variable = variables.find((v) => v.name.toLowerCase() === LANGUAGE_VARIABLE)
    if (variable) variable.value = language
  }
  const turn = new Turn(state, ports, input.sessionId, input.bot, input.contact, input.now)
  if (input.resultId) {
    // The result exists from the first view, with its prefilled variables.
    turn.touchResult()
  }
  if (input.isOnlyRegistering) {
    state.notStarted = true
    return turn.output()
  }
  const startProps = startPropsOf(input.bot)
  if (startProps) turn.addAction({ type: 'injectStartProps', injectStartProps: startProps })
  await turn.walk(turn.startPoint(input.startFrom))
  if (input.message) {
    await turn.answerOpening(input.message)
    // A visitor who wrote started a chat, also when the message came before the bot's first
    // question and answered nothing (docs/security.md, "Chats of the month").
    const { text, attachedFileUrls } = input.message
    if ((typeof text === 'string' && text.trim() !== '') || attachedFileUrls?.length) {
      turn.markStarted()
    }
  }
  return turn.output()
}

export type TimeoutStatus =
  { status: 'taken' } | { status: 'early'; remainingMs: number } | { status: 'stale' }

/** The reply timeout of an input block, in seconds, when it has a valid one. */
export function timeoutSecondsOf(block: Block): number | undefined {
  const seconds = block.timeout?.seconds
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1
    ? Math.round(seconds)
    : undefined
}

/**
 * The awaited input's reply timeout fired (the web viewer's timer, a channel's delayed
 * job): past its deadline the "No reply" path runs, else nothing changes. `expected`
 * names the question the timer was set for, so a late timer of an earlier question is
 * stale rather than taken.
 */
export async function timeoutChat(
  ports: EnginePorts,
  input: ContinueInput & { expected?: { blockId: string; deadline?: number } }
): Promise<{ status: TimeoutStatus; output: TurnOutput }> {
  const turn = new Turn(input.state, ports, input.sessionId, input.bot, input.contact, input.now)
  const status = await turn.timeout(input.expected)
  return { status, output: turn.output() }
}

/** Takes the next turn of a session with the visitor's message (or none). */
export async function continueChat(ports: EnginePorts, input: ContinueInput): Promise<TurnOutput> {
  const state = input.state
  if (input.textBubbleContentFormat) state.textBubbleContentFormat = input.textBubbleContentFormat
  const turn = new Turn(state, ports, input.sessionId, input.bot, input.contact, input.now)
  if (state.notStarted) {
    state.notStarted = false
    await turn.walk(turn.startPoint(state.startFrom))
    if (input.message && state.awaiting) await turn.answer(input.message)
    return turn.output()
  }
  if (!state.awaiting) {
    // The chat is over: nothing more to say.
    return turn.output()
  }
  await turn.answer(input.message)
  return turn.output()
}

/**
 * The block a session is paused on, with the BotRunContext its runner received: the
 * stream endpoint runs the block's streamer with it. Reads the state, changes nothing.
 */
export function awaitedBlockOf(
  ports: EnginePorts,
  input: { state: SessionState; sessionId: string; bot: EngineBot }
) {
  return new Turn(input.state, ports, input.sessionId, input.bot).awaitedBlock()
}
