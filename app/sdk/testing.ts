/**
 * `#sdk/testing`: what a plugin's tests use: stand-in HTTP servers for the service a plugin
 * calls, and runners run as the engines run them: `runPluginTest` runs a plugin from its
 * own folder on either surface with given credentials; `runBlock`, `parseAnswer` and
 * `runNode` run installed plugins by id. Test code only. See docs/plugins.md.
 */
// The stand-in server and the test HTTP client are the SDK package's (@flowcraft/sdk/testing);
// runPluginTest here is the app's own, with its sandbox and storage.
export {
  startStandIn,
  sendJson,
  recordText,
  testHttp,
  pluginUnderTest,
  testWorkflowNode,
  testOutcome,
  type StandInRequest,
  type StandInExchange,
  type StandInContext,
  type StandInOptions,
  type TextStandInRequest,
} from '../../packages/sdk/src/testing/index.js'
export {
  botContext,
  answerContext,
  runBlock,
  parseAnswer,
  memoryVariables,
  memoryAi,
  type ContextInput,
  type TestContext,
  type TestVariable,
} from '../../tests/unit/plugins/runners/bot_context.js'
export { runNode, type NodeRunInput } from '../../tests/unit/plugins/workflow/node_context.js'
export { runPluginTest, storedFile, type PluginTestRun } from '../../tests/plugin_harness.js'
