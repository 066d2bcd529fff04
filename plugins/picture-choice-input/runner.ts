import type { InputParser, Runner, RunnerBlock } from '#sdk/plugin'
import { choiceAnswer, displayedItems, valuesOf } from '#sdk/inputs'
import type plugin from './index.js'

type Item = NonNullable<RunnerBlock['items']>[number]

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

export const run: Runner<typeof plugin> = ({ options, bot, variables }) => {
  const block = bot!.block
  const dynamic = options.dynamicItems
  let items: Item[]
  if (dynamic?.isEnabled) {
    const read = (id: string | undefined) => (id ? valuesOf(variables.get(id)) : [])
    const pictures = read(dynamic.pictureSrcsVariableId)
    const titles = read(dynamic.titlesVariableId)
    const descriptions = read(dynamic.descriptionsVariableId)
    const count = Math.max(pictures.length, titles.length, descriptions.length)
    items = Array.from({ length: count }, (_, index) => {
      const item: Item = { id: `${block.id}-dynamic-${index}`, blockId: block.id }
      if (pictures[index]) item.pictureSrc = pictures[index]
      if (titles[index]) item.title = titles[index]
      if (descriptions[index]) item.description = descriptions[index]
      return item
    })
  } else {
    items = displayedItems(block.items, bot!)
  }
  if (items.length === 0) return { skipInput: true }
  return { input: { items } }
}

/** A picture is named by its title, or by its URL when it has none. */
export const parse: InputParser<typeof plugin> = ({ answer, options, bot }) => {
  const choices = (bot?.block.items ?? []).map((item) => {
    const title = text(item.title)
    const pictureSrc = text(item.pictureSrc)
    return { item, label: title || pictureSrc || item.id, keys: [title, pictureSrc, item.id] }
  })
  return choiceAnswer(answer.text ?? '', choices, options.isMultipleChoice === true)
}
