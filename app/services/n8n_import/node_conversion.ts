import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import type { DataPathOf, N8nConversion, N8nConverter, N8nImportTools, N8nNode } from '#sdk/n8n'
import {
  translateJs,
  translateJsValue,
  translateText,
  UntranslatedExpression,
} from '#services/n8n_import/expressions'

/**
 * One n8n node through the plugin that takes its type over (`importsFrom.n8n` in its
 * manifest, `fromN8n` in its runner): the new node's options and what did not carry over.
 * The core names no plugin: the placeholder is the plugin that lists '*'.
 */

export interface NodeConversion extends N8nConversion {
  plugin: AnyPlugin
  lost: string[]
  /** Why the node fell back to the placeholder (no plugin, or its converter refused). */
  unmapped?: string
}

/** n8n names of the data of a run that have nothing to stand for here. */
const UNKNOWN_NAMES =
  /\$(?:env|vars|secrets|workflow|execution|prevNode|runIndex|itemIndex|position|binary|items|jmespath|evaluateExpression|getWorkflowStaticData)\b/g

export function convertersOf(registry: PluginRegistry) {
  const byType = new Map<string, AnyPlugin>()
  let fallback: AnyPlugin | undefined
  for (const plugin of registry.forWorkflows()) {
    for (const type of plugin.importsFrom?.n8n ?? []) {
      if (type === '*') fallback ??= plugin
      else if (!byType.has(type)) byType.set(type, plugin)
    }
  }
  return { byType, fallback }
}

function toolsFor(lost: string[], inputs: string[][], paths: DataPathOf): N8nImportTools {
  const note = (what: string) => {
    if (!lost.includes(what)) lost.push(what)
  }
  const untranslated = (error: unknown) => {
    if (!(error instanceof UntranslatedExpression)) throw error
    note(`the expression ${error.expression} (${error.name} has no counterpart; kept as text)`)
  }
  return {
    text(value) {
      try {
        return translateText(value, paths)
      } catch (error) {
        untranslated(error)
        return String(value).replace(/^=/, '')
      }
    },
    jsValue(value) {
      try {
        return translateJsValue(value, paths)
      } catch (error) {
        untranslated(error)
        return JSON.stringify(String(value).replace(/^=/, ''))
      }
    },
    js(code) {
      const translated = translateJs(code, paths)
      for (const [name] of translated.matchAll(UNKNOWN_NAMES)) {
        note(`${name} in the code (no counterpart here)`)
      }
      return translated
    },
    inputs,
    lost: note,
  }
}

export async function convertNode(
  registry: PluginRegistry,
  converters: ReturnType<typeof convertersOf>,
  node: N8nNode,
  inputs: string[][],
  paths: DataPathOf
): Promise<NodeConversion> {
  const lost: string[] = []
  const mapped = converters.byType.get(node.type)
  let unmapped: string | undefined = mapped ? undefined : 'no equivalent node'
  if (mapped) {
    const fromN8n = await registry.exportOf<N8nConverter>(mapped.id, 'fromN8n')
    if (typeof fromN8n === 'function') {
      try {
        return { ...fromN8n(node, toolsFor(lost, inputs, paths)), plugin: mapped, lost }
      } catch (error) {
        unmapped = error instanceof Error ? error.message : String(error)
        lost.length = 0
      }
    } else unmapped = 'no converter'
  }
  const fallback = converters.fallback
  if (!fallback) throw new Error('No plugin takes unmapped n8n nodes (importsFrom n8n "*")')
  const fromN8n = await registry.exportOf<N8nConverter>(fallback.id, 'fromN8n')
  if (typeof fromN8n !== 'function') throw new Error(`${fallback.id} exports no fromN8n`)
  return { ...fromN8n(node, toolsFor(lost, inputs, paths)), plugin: fallback, lost, unmapped }
}
