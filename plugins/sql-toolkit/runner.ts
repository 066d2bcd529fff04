import { type AgentToolFactory, toolNodeAlone } from '#sdk/ai'
import { sqlToolkitTools, targetOf } from './lib/tools.js'

/** The tools this node lends the agent it is plugged into, on the chosen database. */
export const agentTools: AgentToolFactory = ({ options, credentials }) => {
  const engine = options.action === 'MySQL' ? 'mysql' : 'postgres'
  return sqlToolkitTools(engine, targetOf(engine, credentials ?? {}), options)
}

/** Run as a step of its own (a flow edge into it), the node only says where it belongs. */
export default { PostgreSQL: toolNodeAlone, MySQL: toolNodeAlone }
