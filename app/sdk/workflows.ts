/**
 * `#sdk/workflows`: run a published workflow of the caller's workspace from a plugin and wait
 * for its output. Server only.
 */
export {
  runWorkflowForPlugin,
  type WorkflowCallOutcome,
} from '../services/workflows/run_for_plugin.js'
