import type { ChatInput, ChatLog, ChatMessage, ClientSideAction } from '#shared/chat/types'
import type { Block } from '#shared/bot/types'
import type { BotRunContext, LogEntry, TranscriptEntry } from '#plugins/define_plugin'
import {
  LANGUAGE_VARIABLE,
  languagesOf,
  matchLanguage,
  tableOf,
  translateBlock,
} from '#shared/bot/translations'
import type { EngineBot, EnginePorts } from './ports.js'
import {
  TRANSCRIPT_LIMIT,
  type EngineVariable,
  type EngineVariableValue,
  type QueuedBot,
  type SessionState,
} from './state.js'
import { messageText } from './messages.js'
import { type ResultUpdate, type TurnEffects } from './turn_types.js'

/**
 * What a turn records as it goes (engine.ts): the reply's messages, actions and logs, the
 * effects to persist (answers, logs, results) and the session's variables and transcript.
 * Turn (turn.ts) adds the walk through the bot.
 */

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

/** A copy of variables a turn may change (a new chat's, a linked bot's). */
export function cloneVariables(variables: readonly EngineVariable[]): EngineVariable[] {
  return variables.map((v) => ({ ...v }))
}

export class TurnRecords {
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

  protected pushTranscript(entry: TranscriptEntry) {
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
}
