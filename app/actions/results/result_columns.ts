import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import { pluginRegistry } from '#services/plugin_registry'
import type { BotEvent, BotSettings, Edge, Group, Variable } from '#shared/bot/types'
import { languagesOf } from '#shared/bot/translations'
import { LANGUAGE_COLUMN, SUBMITTED_AT_COLUMN, type ResultColumnDto } from '#shared/results/types'

/** The flow the results of a bot came from: the published version, else the draft. */
export interface ResultsGraph {
  groups: Group[]
  edges: Edge[]
  events: BotEvent[]
  variables: Variable[]
  settings?: BotSettings
}

export async function resultsGraphOf(bot: Bot): Promise<ResultsGraph> {
  const published = await PublishedBot.findBy('bot_id', bot.id)
  const source = published ?? bot
  return {
    groups: source.groups ?? [],
    edges: source.edges ?? [],
    events: source.events ?? [],
    variables: source.variables ?? [],
    settings: source.settings ?? undefined,
  }
}

/** Ids of the graph's input blocks (plugins of the `input` category), in flow order. */
export async function inputBlocksOf(graph: ResultsGraph) {
  const registry = await pluginRegistry()
  const inputs: { block: Group['blocks'][number]; group: Group; pluginName: string }[] = []
  for (const group of graph.groups) {
    for (const block of group.blocks ?? []) {
      const plugin = registry.get(block.type)
      if (plugin?.category === 'input') inputs.push({ block, group, pluginName: plugin.name })
    }
  }
  return inputs
}

/**
 * The table's columns: "Submitted at", one per input block (named after the variable it
 * saves into, else "group title · block"), then the variables no input block fills, then
 * "Language" when the bot has languages set up: from then on every chat records one
 * (app/engine/bot/engine.ts), while a bot in one language would show an empty column.
 */
export async function resultColumnsOf(graph: ResultsGraph): Promise<ResultColumnDto[]> {
  const variableName = new Map(graph.variables.map((v) => [v.id, v.name]))
  const columns: ResultColumnDto[] = [
    { id: SUBMITTED_AT_COLUMN, kind: 'submittedAt', label: 'Submitted at' },
  ]
  const filled = new Set<string>()
  for (const { block, group, pluginName } of await inputBlocksOf(graph)) {
    const variableId = block.options?.variableId
    const name = typeof variableId === 'string' ? variableName.get(variableId) : undefined
    if (name) filled.add(variableId as string)
    columns.push({
      id: block.id,
      kind: 'block',
      label: name ?? `${group.title || 'Group'} · ${pluginName}`,
      blockType: block.type,
      groupId: group.id,
    })
  }
  for (const variable of graph.variables) {
    if (filled.has(variable.id)) continue
    columns.push({ id: variable.id, kind: 'variable', label: variable.name })
  }
  if (languagesOf(graph.settings)) {
    columns.push({ id: LANGUAGE_COLUMN, kind: 'language', label: 'Language' })
  }
  return columns
}

export interface CellAnswer {
  blockId: string
  content: string
  attachedFileUrls: string[] | null
}

export interface CellResult {
  createdAt: string
  variables: { id: string; value: unknown }[] | null
  language?: string | null
}

function variableText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(variableText).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** An answer as a cell: its content, plus attached files not already in it. */
function answerText(answer: CellAnswer): string {
  const files = (answer.attachedFileUrls ?? []).filter((url) => !answer.content.includes(url))
  return [answer.content, ...files].filter(Boolean).join(', ')
}

/**
 * The cells of one result: the latest answer of each input block (answers in the order
 * they were given), the variables' values, the submission date (ISO).
 */
export function resultCells(
  result: CellResult,
  answers: CellAnswer[],
  columns: ResultColumnDto[]
): Record<string, string> {
  const byBlock = new Map<string, string>()
  for (const answer of answers) byBlock.set(answer.blockId, answerText(answer))
  const byVariable = new Map((result.variables ?? []).map((v) => [v.id, v.value]))
  const cells: Record<string, string> = {}
  for (const column of columns) {
    if (column.kind === 'submittedAt') cells[column.id] = result.createdAt
    else if (column.kind === 'block') cells[column.id] = byBlock.get(column.id) ?? ''
    else if (column.kind === 'language') cells[column.id] = result.language ?? ''
    else cells[column.id] = variableText(byVariable.get(column.id))
  }
  return cells
}
