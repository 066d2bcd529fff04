import type { RunnerAi } from '../runner_types.js'
import { appPort } from '../port.js'
import type { AgentTool } from './types.js'

/**
 * The knowledge stores a chat block or an agent lets its model search. The stores are the
 * app's (its database, its vector backends): the SDK names the tool and asks the app, through
 * the port, for the stores of a workspace and for the tool that searches them.
 */

export const KNOWLEDGE_TOOL_NAME = 'search_knowledge'

/** One passage a search returned, with the store it came from. */
export interface KnowledgeToolHit {
  storeName: string
  sourceId: string
  sourceName: string
  content: string
  /** Higher is better. */
  score: number
}

export interface KnowledgeToolInput {
  workspaceId: string
  storeId?: string
  storeIds?: string[]
  limit?: number
  signal?: AbortSignal
  /** The block's AI-credit port: the query's embedding is charged to its owner. */
  ai?: RunnerAi
  /** Sees every passage the tool gives the model. */
  onHits?: (hits: KnowledgeToolHit[]) => void
}

/** The app's side of `@flowcraft/sdk/ai` (see port.ts). */
export interface AiPort {
  knowledgeStoresOf: typeof knowledgeStoresOf
  knowledgeAgentTool: typeof knowledgeAgentTool
}

/** The stores of a workspace, as the options of a Knowledge store field. */
export async function knowledgeStoresOf(
  workspaceId: string
): Promise<{ value: string; label: string }[]> {
  return appPort('ai').knowledgeStoresOf(workspaceId)
}

/**
 * The "search knowledge" tool of agents and chat blocks over the stores of the block's
 * workspace (a store of another workspace is not found); the model sends a query and reads
 * the best passages of each store with their sources.
 */
export function knowledgeAgentTool(input: KnowledgeToolInput): AgentTool {
  return appPort('ai').knowledgeAgentTool(input)
}
