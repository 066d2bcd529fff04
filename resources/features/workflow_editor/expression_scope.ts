import { useEffect, useMemo, useState } from 'react'
import type { WorkflowDoc } from './workflow_editing'
import { addVariable } from './workflow_editing'
import { jsonFetch } from '~/lib/http'
import { isRecord } from '~/features/plugin_form/values'
import type { ExpressionScope, ScopeNode } from '~/features/plugin_form/expressions'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { useWorkflowPlugins, isTrigger } from './workflow_plugins'
import { isSettled } from './run_stream'
import { declaredInput, declaredOutput } from './declared_output'

/**
 * The `{{` completion of the open node's fields (docs/workflows.md, "Expressions"): the
 * workflow's variables, `$input` and `$trigger`, and the nodes that run before it, with
 * the fields their last test run gave.
 */

interface RunSamples {
  runId: string
  input: unknown
  nodes: Record<string, { input: unknown; output: unknown }>
}

/** Read once per run: a settled run's record does not change. */
const samplesByRun = new Map<string, Promise<RunSamples | null>>()

function readSamples(runId: string): Promise<RunSamples | null> {
  let pending = samplesByRun.get(runId)
  if (!pending) {
    pending = jsonFetch<unknown>(`/api/v1/runs/${runId}`)
      .then((body) => {
        const run = isRecord(body) && isRecord(body.run) ? body.run : body
        if (!isRecord(run)) return null
        const nodes: RunSamples['nodes'] = {}
        // Oldest first: a node visited twice (a loop) keeps its latest visit.
        for (const node of Array.isArray(run.nodes) ? run.nodes : []) {
          if (isRecord(node) && typeof node.nodeId === 'string' && node.status === 'success') {
            nodes[node.nodeId] = { input: node.input, output: node.output }
          }
        }
        return { runId, input: run.input, nodes }
      })
      .catch(() => {
        // Not kept: a later opening asks again.
        samplesByRun.delete(runId)
        return null
      })
    samplesByRun.set(runId, pending)
  }
  return pending
}

/** The last settled run's node data, once read. */
function useRunSamples(): RunSamples | null {
  const runId = useWorkflowEditor((state) =>
    state.run && isSettled(state.run.status) ? state.run.id : null
  )
  const [samples, setSamples] = useState<RunSamples | null>(null)
  useEffect(() => {
    if (!runId) return
    let current = true
    void readSamples(runId).then((read) => {
      if (current && read) setSamples(read)
    })
    return () => {
      current = false
    }
  }, [runId])
  return samples
}

/** The nodes a node may read: those with a path of steps to it, nearest first. */
export function nodesBefore(doc: Pick<WorkflowDoc, 'blocks' | 'edges'>, nodeId: string) {
  const found: string[] = []
  const seen = new Set([nodeId])
  let frontier = [nodeId]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const id of frontier) {
      for (const edge of doc.edges) {
        if (edge.isAttachment || edge.to.blockId !== id || seen.has(edge.from.blockId)) continue
        seen.add(edge.from.blockId)
        found.push(edge.from.blockId)
        next.push(edge.from.blockId)
      }
    }
    frontier = next
  }
  return found
}

export function useWorkflowExpressionScope(nodeId: string): ExpressionScope {
  const api = useWorkflowEditorApi()
  const plugins = useWorkflowPlugins()
  const doc = useWorkflowEditor((state) => state.history.present)
  const samples = useRunSamples()
  const readOnly = useWorkflowEditor((state) => state.readOnly)

  return useMemo(() => {
    const blocks = new Map(doc.blocks.map((block) => [block.id, block]))
    const nodes: ScopeNode[] = nodesBefore(doc, nodeId).flatMap((id) => {
      const block = blocks.get(id)
      if (!block) return []
      const title = block.title?.trim()
      // Before a run gave its data: its pinned data, else what its plugin declares.
      const declared = samples?.nodes[id] ? undefined : declaredOutput(doc, plugins, id)
      return [
        {
          id,
          title: title || plugins.get(block.type)?.name || block.type,
          name: title || id,
          sample: samples?.nodes[id]?.output ?? declared?.sample,
          schema: declared?.schema,
        },
      ]
    })
    const trigger = doc.blocks.find((block) => isTrigger(plugins.get(block.type)))
    const triggerSample = trigger ? samples?.nodes[trigger.id]?.output : undefined
    const triggerDeclared =
      trigger && triggerSample === undefined ? declaredOutput(doc, plugins, trigger.id) : undefined
    const input = samples?.nodes[nodeId]?.input
    const inputDeclared = input === undefined ? declaredInput(doc, plugins, nodeId) : undefined
    return {
      variables: doc.variables,
      references: {
        input: input ?? inputDeclared?.sample,
        inputSchema: inputDeclared?.schema,
        // A test run's trigger data, else the pinned sample (test runs start from it).
        trigger: triggerSample ?? triggerDeclared?.sample ?? samples?.input,
        triggerSchema: triggerDeclared?.schema,
        nodes,
      },
      createVariable: readOnly
        ? undefined
        : (name) => {
            let made = api.getState().history.present.variables.find((v) => v.name === name)
            if (!made) {
              api.getState().edit((current) => {
                const result = addVariable(current, name)
                made = result.variable
                return result.doc
              })
            }
            return made
          },
    }
  }, [doc, nodeId, plugins, samples, readOnly, api])
}
