import type { InputParser, Runner } from '#sdk/plugin'
import { choiceAnswer, displayedItems, valuesOf, type ChoiceItem } from '#sdk/inputs'
import type plugin from './index.js'

type Item = ChoiceItem

const labelOf = (item: Item) =>
  typeof item.content === 'string'
    ? item.content
    : item.content === null || item.content === undefined
      ? ''
      : String(item.content)

export const run: Runner<typeof plugin> = ({ options, bot, variables }) => {
  const block = bot!.block
  const items: Item[] = options.dynamicVariableId
    ? valuesOf(variables.get(options.dynamicVariableId)).map((content, index) => ({
        id: `${block.id}-dynamic-${index}`,
        blockId: block.id,
        content,
      }))
    : displayedItems(block.items, bot!)
  if (items.length === 0) return { skipInput: true }
  return { input: { items } }
}

export const parse: InputParser<typeof plugin> = ({ answer, options, bot }) => {
  const choices = (bot?.block.items ?? []).map((item) => ({
    item,
    label: labelOf(item),
    keys: [labelOf(item), item.id],
  }))
  return choiceAnswer(answer.text ?? '', choices, options.isMultipleChoice === true)
}
