import type { Block, Group } from '#shared/bot/types'
import type { ChatInput, ChatMessage, ChatReply, ClientSideAction } from '#shared/chat/types'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import { resolveTheme, resolveSettings } from '#shared/bot/types'
import { substituteDeep, formatVariableValue } from '#plugins/substitute'
import type { BotRunContext, BotRunResult, InputAnswer, RunnerBlock } from '#plugins/define_plugin'
import { DEFAULT_LOOP_MAX_ITERATIONS } from '#sdk/loops'
import { evaluateCondition } from './conditions.js'
import {
  type EngineVariable,
  type RepeatFrame,
  type ResumePoint,
  type SessionState,
} from './state.js'
import { TurnRecords, cloneVariables } from './turn_records.js'
import { indexOf, remainingInputs, type Position } from './flow_graph.js'
import { textContent, textBubbleMentions } from './messages.js'
import { timeoutSecondsOf } from './turn_timeout.js'
import {
  MAX_BLOCK_VISITS,
  LOOP_ERRORS,
  DEFAULT_RETRY_MESSAGE,
  type TurnOutput,
} from './turn_types.js'

/**
 * A block's items with their {{variables}} filled in for the runner (button labels, ...).
 * Comparisons (Condition branches, choices' display conditions) stay as stored:
 * evaluateCondition reads each side with the values of the moment, and its subject is a
 * variable id or an expression; filled in first, `{{City}}, France` would become text that
 * names no variable and the branch could never hold.
 */
function itemsWithValues(items: Block['items'], variables: readonly EngineVariable[]) {
  return substituteDeep(items, variables, { skipKeys: ['comparisons'] })
    .value as RunnerBlock['items']
}

/** One turn of the chat engine (engine.ts): the walk through the bot and the answers. */
export class Turn extends TurnRecords {
  private visits = 0
  private iterations = 0

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
    const items = block.items?.length ? itemsWithValues(block.items, this.variables) : undefined
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
    const items = block.items?.length ? itemsWithValues(block.items, this.variables) : undefined
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
    return awaiting ? remainingInputs(this.bot.content, awaiting, this.ports.categoryOf) : 0
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
