/**
 * `#sdk/knowledge`: the knowledge stores of the block's workspace, for plugins (the vector
 * store lookup, agents' "search knowledge" tool). Server only. docs/knowledge.md.
 */
export {
  searchKnowledge,
  knowledgeStoresOf,
  knowledgeAgentTool,
  formatKnowledgeHits,
  lookupFailure,
  KNOWLEDGE_TOOL_NAME,
  type KnowledgeLookup,
} from '../services/knowledge/plugin_access.js'
export type { KnowledgeHit, KnowledgeSearchResult } from '../shared/knowledge.js'
export { DEFAULT_DOCUMENT_COUNT, MAX_DOCUMENT_COUNT } from '../shared/knowledge.js'
