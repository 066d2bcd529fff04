import type { BotRunContext, ParsedAnswer, RunnerBlock, VariableValue } from './runner_types.js'

/**
 * Choices a visitor names by label or key: shared by the choice inputs (buttons, pictures,
 * cards). Plugins reach it through `@flowcraft/sdk/inputs` (`#sdk/inputs` in the app).
 */
export type ChoiceItem = NonNullable<RunnerBlock['items']>[number]

/** A choice the visitor can name: by its label (case-insensitive) or one of its other keys. */
export interface Choice {
  item: ChoiceItem
  /** What is recorded and shown as the visitor's answer. */
  label: string
  /** Texts that name this choice (label, id, picture URL...). */
  keys: string[]
}

const normalize = (text: string) => text.normalize('NFC').trim().toLowerCase()

/**
 * The values of a variable as a list: lists as they are, a JSON array kept as text
 * (what an HTTP response mapping stores), else the single value.
 */
export function valuesOf(value: VariableValue): string[] {
  let list: unknown[]
  if (Array.isArray(value)) list = value
  else if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed = JSON.parse(value)
      list = Array.isArray(parsed) ? parsed : [value]
    } catch {
      list = [value]
    }
  } else list = value === null || value === undefined ? [] : [value]
  return list
    .filter((entry) => entry !== null && entry !== undefined)
    .map((entry) => (typeof entry === 'object' ? JSON.stringify(entry) : String(entry)))
    .filter((entry) => entry.trim() !== '')
}

/** Items whose display condition holds, without the condition (the browser needs none). */
export function displayedItems(items: RunnerBlock['items'], bot: BotRunContext): ChoiceItem[] {
  const shown: ChoiceItem[] = []
  for (const item of items ?? []) {
    const { displayCondition, ...rest } = item as ChoiceItem & {
      displayCondition?: { isEnabled?: boolean; condition?: unknown }
    }
    if (displayCondition?.isEnabled && displayCondition.condition) {
      if (!bot.evaluateCondition(displayCondition.condition)) continue
    }
    shown.push(rest)
  }
  return shown
}

function keyedChoices(choices: Choice[]) {
  return choices.map((choice) => ({
    choice,
    keys: [...new Set(choice.keys.map(normalize).filter((key) => key !== ''))],
  }))
}

/**
 * The choices an answer names. One choice: the whole answer. Several: a JSON array, or
 * the labels joined by commas; labels may hold commas themselves, so at each position
 * the longest label followed by a comma (or the end) wins.
 */
export function matchChoices(text: string, choices: Choice[], multiple: boolean) {
  const keyed = keyedChoices(choices)
  const whole = normalize(text)
  if (whole === '') return undefined
  const exact = keyed.find(({ keys }) => keys.includes(whole))?.choice
  if (exact || !multiple) return exact ? [exact] : undefined

  if (whole.startsWith('[')) {
    try {
      const list = JSON.parse(text.trim())
      if (Array.isArray(list) && list.length > 0) {
        const found = list.map(
          (entry) => keyed.find(({ keys }) => keys.includes(normalize(String(entry))))?.choice
        )
        return found.every(Boolean) ? [...new Set(found as Choice[])] : undefined
      }
    } catch {
      // Not JSON: read it as labels joined by commas.
    }
  }

  const found: Choice[] = []
  let position = 0
  while (position < whole.length) {
    let best: { choice: Choice; end: number } | undefined
    for (const { choice, keys } of keyed) {
      for (const key of keys) {
        if (!whole.startsWith(key, position)) continue
        const rest = /^\s*(?:,\s*|$)/.exec(whole.slice(position + key.length))
        if (!rest) continue
        const end = position + key.length + rest[0].length
        if (!best || key.length > best.end - position) best = { choice, end }
      }
    }
    if (!best) return undefined
    if (!found.includes(best.choice)) found.push(best.choice)
    position = best.end
  }
  return found.length > 0 ? found : undefined
}

/** The parsed answer of a choice block: one choice leaves through its item's edge. */
export function choiceAnswer(text: string, choices: Choice[], multiple: boolean): ParsedAnswer {
  const found = matchChoices(text, choices, multiple)
  if (!found) return { status: 'fail', reason: 'The answer matches none of the choices' }
  if (!multiple) {
    const [{ item, label }] = found
    return item.outgoingEdgeId
      ? { status: 'success', value: label, outgoingEdgeId: item.outgoingEdgeId }
      : { status: 'success', value: label }
  }
  // Several choices cannot follow one item's edge: the block's own edge is taken.
  const labels = found.map((choice) => choice.label)
  return { status: 'success', value: labels.join(', '), variableValue: labels }
}
