import { newId } from '#services/ids'
import { categoryOn } from '#plugins/define_plugin'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import type { N8nNode } from '#sdk/n8n'
import {
  defaultWorkflowSettings,
  type WorkflowBlock,
  type WorkflowEdge,
  type WorkflowJson,
} from '#shared/workflow/types'
import { clampWorkflowName, NOTES_MAX_LENGTH } from '#shared/workflow/validate'
import type { N8nImportReportDto, N8nNodeImportLine } from '#shared/workflow/n8n_import'
import { convertersOf, convertNode, type NodeConversion } from './node_conversion.js'
import type { N8nExport } from './n8n_export.js'

/**
 * An n8n export as one of our workflows, with the report of what did not carry over
 * (docs/migrating-from-n8n.md): names, positions and notes are kept; each node goes
 * through the plugin that takes its type; n8n's `main` connections become edges (by
 * branch for IF and Switch), its AI connections attachments of the agent. Credentials are
 * never read beyond their type, which the report names.
 */

const STICKY_NOTE = 'n8n-nodes-base.stickyNote'

/** n8n's AI connection types and the plugin category of the node they plug in. */
const AI_CONNECTIONS: Record<string, string> = {
  ai_languageModel: 'model',
  ai_tool: 'tool',
}

/** Node settings of n8n that are per workflow here (Settings: retries, continue on fail). */
const NODE_SETTINGS: [string, string][] = [
  ['retryOnFail', 'retry on fail (retries are a workflow setting here)'],
  ['continueOnFail', 'continue on fail (a workflow setting here)'],
  ['alwaysOutputData', 'always output data'],
  ['executeOnce', 'execute once'],
]

interface Converted {
  node: N8nNode
  block: WorkflowBlock
  conversion: NodeConversion
}

export interface N8nConversionResult {
  workflow: WorkflowJson
  report: N8nImportReportDto
}

/** Sources connected to each main input of each node, in n8n's order. */
function mainInputs(source: N8nExport) {
  const inputs = new Map<string, string[][]>()
  for (const [from, types] of Object.entries(source.connections)) {
    for (const targets of types.main ?? []) {
      for (const target of targets ?? []) {
        const list = inputs.get(target.node) ?? []
        const index = Number.isInteger(target.index) && target.index >= 0 ? target.index : 0
        while (list.length <= index) list.push([])
        if (!list[index].includes(from)) list[index].push(from)
        inputs.set(target.node, list)
      }
    }
  }
  return inputs
}

function firstOf(inputs: string[][] | undefined) {
  return inputs?.find((side) => side.length > 0)?.[0]
}

/** Where n8n's `$json` of each node is in our output, following nodes that pass it on. */
function dataPaths(conversions: Map<string, NodeConversion>, inputs: Map<string, string[][]>) {
  const memo = new Map<string, string>()
  const pathOf = (name: string | undefined, seen = new Set<string>()): string => {
    if (name === undefined) return ''
    const known = memo.get(name)
    if (known !== undefined) return known
    const conversion = conversions.get(name)
    if (!conversion || seen.has(name)) return ''
    seen.add(name)
    const path = conversion.passesInput
      ? pathOf(firstOf(inputs.get(name)), seen)
      : (conversion.dataPath ?? '')
    memo.set(name, path)
    return path
  }
  return pathOf
}

function reportLine(converted: Converted): N8nNodeImportLine {
  const { node, conversion, block } = converted
  const status = conversion.unmapped
    ? 'placeholder'
    : conversion.lost.length > 0
      ? 'partial'
      : 'mapped'
  return {
    name: node.name,
    n8nType: node.type,
    type: conversion.plugin.id,
    status,
    lost: conversion.unmapped ? [conversion.unmapped, ...conversion.lost] : conversion.lost,
    credentials: Object.keys(node.credentials ?? {}),
    disabled: block.isDisabled === true,
  }
}

/** The slot of an agent's plugin that takes nodes of `category` (its `accepts`, or its name). */
function slotFor(agent: AnyPlugin, category: string) {
  return agent.attachments?.find((slot) =>
    (slot.accepts ?? [slot.name]).includes(category as never)
  )
}

export async function convertN8nWorkflow(
  registry: PluginRegistry,
  source: N8nExport
): Promise<N8nConversionResult> {
  const converters = convertersOf(registry)
  const workflowLines: string[] = []
  const notes = source.nodes.filter((node) => node.type === STICKY_NOTE)
  const nodes = source.nodes.filter((node) => node.type !== STICKY_NOTE)
  const inputs = mainInputs(source)

  // First pass: what each node outputs, so expressions read n8n's `$json` where it is here.
  const drafts = new Map<string, NodeConversion>()
  for (const node of nodes) {
    drafts.set(node.name, await convertNode(registry, converters, node, [], () => ''))
  }
  const pathOf = dataPaths(drafts, inputs)
  const read = (name: string) => {
    const path = pathOf(name)
    return `$node[${JSON.stringify(name)}]${path ? `.${path}` : ''}`
  }

  const converted: Converted[] = []
  for (const [index, node] of nodes.entries()) {
    const own = inputs.get(node.name) ?? []
    const conversion = await convertNode(
      registry,
      converters,
      node,
      own.map((side) => side.map(read)),
      (name) => pathOf(name ?? firstOf(own))
    )
    for (const [key, what] of NODE_SETTINGS) {
      if (node[key as keyof N8nNode]) conversion.lost.push(what)
    }
    const onError = (node as { onError?: string }).onError
    if (onError && onError !== 'stopWorkflow') conversion.lost.push(`on error: ${onError}`)
    const [x, y] = Array.isArray(node.position) ? node.position : [index * 250, 0]
    const block: WorkflowBlock = {
      id: newId(),
      type: conversion.plugin.id,
      title: node.name,
      graphCoordinates: { x: Number(x) || 0, y: Number(y) || 0 },
      options: conversion.options,
      ...(conversion.conditions
        ? {
            conditions: conversion.conditions.map((item) => ({
              id: newId(),
              content: item.content,
            })),
          }
        : {}),
      ...(node.disabled || conversion.unmapped ? { isDisabled: true } : {}),
      ...(typeof node.notes === 'string' && node.notes.trim()
        ? { notes: node.notes.slice(0, NOTES_MAX_LENGTH) }
        : {}),
    }
    converted.push({ node, block, conversion })
  }
  const byName = new Map(converted.map((item) => [item.node.name, item]))

  const edges: WorkflowEdge[] = []
  const seen = new Set<string>()
  const addEdge = (edge: Omit<WorkflowEdge, 'id'>) => {
    const key = JSON.stringify(edge)
    if (seen.has(key)) return
    seen.add(key)
    edges.push({ id: newId(), ...edge })
  }
  for (const [from, types] of Object.entries(source.connections)) {
    const origin = byName.get(from)
    for (const [type, outputs] of Object.entries(types ?? {})) {
      for (const [output, targets] of (outputs ?? []).entries()) {
        for (const target of targets ?? []) {
          const destination = byName.get(target.node)
          if (!origin || !destination) {
            workflowLines.push(
              `The connection from "${from}" to "${target.node}": a node is missing`
            )
            continue
          }
          if (type === 'main') {
            const branches = origin.conversion.outputs
            if (branches && output >= branches.length) {
              workflowLines.push(
                `The connection from output ${output + 1} of "${from}" to "${target.node}"`
              )
              continue
            }
            const branch = branches?.[output]
            const conditionId =
              branch === null || branch === undefined
                ? undefined
                : origin.block.conditions?.[branch]?.id
            addEdge({
              from: { blockId: origin.block.id, ...(conditionId ? { conditionId } : {}) },
              to: { blockId: destination.block.id },
            })
            continue
          }
          const category = AI_CONNECTIONS[type]
          const slot = category ? slotFor(destination.conversion.plugin, category) : undefined
          if (!slot || categoryOn(origin.conversion.plugin, 'workflow') !== category) {
            workflowLines.push(`The ${type} connection from "${from}" to "${target.node}"`)
            continue
          }
          addEdge({
            from: { blockId: destination.block.id },
            to: { blockId: origin.block.id },
            isAttachment: true,
            attachmentName: slot.name,
          })
        }
      }
    }
  }

  // Several triggers: a workflow here starts from one; the first enabled stays enabled.
  const triggers = converted.filter(
    (item) => !item.block.isDisabled && categoryOn(item.conversion.plugin, 'workflow') === 'trigger'
  )
  for (const extra of triggers.slice(1)) {
    extra.block.isDisabled = true
    extra.conversion.lost.push('a second trigger (a workflow starts from one here: disabled)')
  }
  if (triggers.length === 0) {
    workflowLines.push('No trigger could be taken over: add one before publishing')
  }
  if (notes.length > 0) {
    workflowLines.push(`${notes.length} sticky note(s): kept in the workflow's description`)
  }
  if (source.pinData && Object.keys(source.pinData).length > 0) {
    workflowLines.push(`The pinned test data of ${Object.keys(source.pinData).length} node(s)`)
  }
  const settings = defaultWorkflowSettings()
  const timeout = Number(source.settings?.executionTimeout)
  if (Number.isFinite(timeout) && timeout > 0) settings.timeout = timeout
  for (const key of ['errorWorkflow', 'timezone', 'callerPolicy']) {
    if (source.settings?.[key]) workflowLines.push(`The workflow setting ${key}`)
  }

  const lines = converted.map(reportLine)
  const name = clampWorkflowName(source.name?.trim() || 'Imported from n8n')
  const description = notes
    .map((note) => String(note.parameters?.content ?? '').trim())
    .filter(Boolean)
    .join('\n\n')
  return {
    workflow: {
      name,
      ...(description ? { description: description.slice(0, 10000) } : {}),
      blocks: converted.map((item) => item.block),
      edges,
      variables: [],
      settings,
    },
    report: {
      name,
      nodes: lines,
      workflow: workflowLines,
      counts: {
        mapped: lines.filter((line) => line.status === 'mapped').length,
        partial: lines.filter((line) => line.status === 'partial').length,
        placeholder: lines.filter((line) => line.status === 'placeholder').length,
        credentials: lines.filter((line) => line.credentials.length > 0).length,
      },
    },
  }
}
