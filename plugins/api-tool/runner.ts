import { type AgentToolFactory, apiAgentTool, toolNodeAlone } from '#sdk/ai'

/** The tool this node lends the agent it is plugged into. */
export const agentTools: AgentToolFactory = ({ options, http, signal }) => {
  const tool = apiAgentTool(options, http, signal)
  if (!tool) throw new Error('API tool: the name is empty')
  return tool
}

/** Run as a step of its own (a flow edge into it), the node only says where it belongs. */
export const run = toolNodeAlone
