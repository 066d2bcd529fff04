import { type AgentToolFactory, customAgentTool, toolNodeAlone } from '#sdk/ai'

/** The tool this node lends the agent it is plugged into. */
export const agentTools: AgentToolFactory = ({ options, sandbox }) => {
  const tool = customAgentTool(options, sandbox)
  if (!tool) throw new Error('Custom tool: the name is empty')
  return tool
}

/** Run as a step of its own (a flow edge into it), the node only says where it belongs. */
export const run = toolNodeAlone
