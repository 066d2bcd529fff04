import type { RunnerAi, RunnerLogger, RunnerSandbox, RunnerVariables } from '../runner_types.js'
import type { ResponseMappingEntry } from '../fields.js'
import {
  executeFunctionTool,
  toolSchemas,
  type StoredFunctionTool,
  type ToolSchema,
} from './function_tools.js'
import { setMapped } from './provider_runs.js'
import { knowledgeAgentTool, KNOWLEDGE_TOOL_NAME } from './knowledge.js'

/**
 * The tools a chat block gives its model, whatever the provider's wire format: the block's
 * function tools (code run in the sandbox) and, when it names knowledge stores, the
 * "search_knowledge" tool (docs/knowledge.md, "From bots and workflows"). Each provider
 * only turns `schemas` into its request shape and its tool calls into `execute`, so the
 * store search and the 'Knowledge sources' mapping are the same for every chat block.
 * Server only.
 */

/** The response mapping item of the sources the model read. */
export const KNOWLEDGE_SOURCES = 'Knowledge sources'

/** One passage a "search_knowledge" call gave the model. */
export interface KnowledgeSourceHit {
  store: string
  source: string
  sourceId: string
  content: string
  score: number
}

/** The stores a chat block lets the model search (its Knowledge stores list). */
function knowledgeStoreIds(options: { knowledgeStores?: { storeId?: string }[] }) {
  return (options.knowledgeStores ?? [])
    .map((entry) => entry?.storeId?.trim() ?? '')
    .filter((id) => id !== '')
}

/**
 * A "search_knowledge" tool over `storeIds` that remembers every passage it returned, so
 * the block can save their sources. Undefined without stores or workspace.
 */
export function knowledgeSearchTool(input: {
  storeIds: string[]
  limit?: number | string
  workspaceId?: string | null
  signal?: AbortSignal
  ai?: RunnerAi
}) {
  if (input.storeIds.length === 0 || !input.workspaceId) return undefined
  const found: KnowledgeSourceHit[] = []
  const tool = knowledgeAgentTool({
    workspaceId: input.workspaceId,
    storeIds: input.storeIds,
    limit: Number(input.limit) || 3,
    signal: input.signal,
    ai: input.ai,
    onHits: (hits) => {
      for (const hit of hits) {
        found.push({
          store: hit.storeName,
          source: hit.sourceName,
          sourceId: hit.sourceId,
          content: hit.content,
          score: hit.score,
        })
      }
    },
  })
  return {
    tool,
    found,
    /** The names of the sources the model read, once each: what a bot shows as citations. */
    sources: () => [...new Set(found.map((hit) => hit.source))],
  }
}

/** A chat block's "search_knowledge" tool, from its Knowledge stores options. */
export function knowledgeToolOf(context: {
  options: { knowledgeStores?: { storeId?: string }[]; knowledgeDocuments?: number | string }
  workspaceId?: string | null
  signal?: AbortSignal
  ai?: RunnerAi
}) {
  return knowledgeSearchTool({
    storeIds: knowledgeStoreIds(context.options),
    limit: context.options.knowledgeDocuments,
    workspaceId: context.workspaceId,
    signal: context.signal,
    ai: context.ai,
  })
}

/** The model's tool arguments: a JSON text, or already an object; anything else is none. */
export function toolArgumentsOf(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>
  if (typeof raw !== 'string' || !raw.trim()) return {}
  try {
    const parsed = JSON.parse(raw)
    return parsed && typeof parsed === 'object' ? parsed : {}
  } catch {
    return {}
  }
}

export interface ChatTools {
  /** Every tool's schema (the function tools, then "search_knowledge"); empty for none. */
  schemas: ToolSchema[]
  /** The knowledge tool and the passages it returned, when the block names stores. */
  knowledge: ReturnType<typeof knowledgeSearchTool>
  /** Answers one tool call of the model (arguments as JSON text or object). */
  execute(name: string, rawArguments: string | Record<string, unknown> | undefined): Promise<string>
  /**
   * After the answer: saves 'Knowledge sources' (empty when the model read nothing) and
   * logs what the model read of the stores.
   */
  report(input: {
    variables: RunnerVariables
    logger: RunnerLogger
    responseMapping?: readonly ResponseMappingEntry[]
  }): void
}

/** The tools of a chat block from its options (`tools`, `knowledgeStores`, `knowledgeDocuments`). */
export function chatToolsOf(context: {
  options: {
    tools?: unknown
    knowledgeStores?: { storeId?: string }[]
    knowledgeDocuments?: number | string
  }
  workspaceId?: string | null
  sandbox?: RunnerSandbox
  signal?: AbortSignal
  ai?: RunnerAi
}): ChatTools {
  const functionTools = context.options.tools as StoredFunctionTool[] | undefined
  const knowledge = knowledgeToolOf(context)
  return {
    schemas: [...toolSchemas(functionTools), ...(knowledge ? [knowledge.tool.schema] : [])],
    knowledge,
    execute: (name, rawArguments) =>
      knowledge && name === KNOWLEDGE_TOOL_NAME
        ? knowledge.tool.execute(toolArgumentsOf(rawArguments))
        : executeFunctionTool(context.sandbox, functionTools, name, rawArguments),
    report({ variables, logger, responseMapping }) {
      const sources = knowledge?.sources() ?? []
      setMapped(variables, responseMapping, KNOWLEDGE_SOURCES, sources)
      if (knowledge && knowledge.found.length > 0) {
        logger.info(`The model read ${knowledge.found.length} passage(s) of the knowledge stores`, {
          sources,
        })
      }
    },
  }
}
