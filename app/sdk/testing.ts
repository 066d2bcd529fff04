/**
 * `#sdk/testing`: what a plugin's tests use: stand-in HTTP servers for the service a plugin
 * calls, and runners run as the engines run them: `runPluginTest` runs a plugin from its
 * own folder on either surface with given credentials; `runBlock`, `parseAnswer` and
 * `runNode` run installed plugins by id. Test code only. See docs/plugins.md.
 */
// The stand-in server and the test HTTP client are the SDK package's (@flowcraft/sdk/testing);
// runPluginTest here is the app's own, with its sandbox and storage. The contexts and the
// harness are app code (app/plugins/testing), not the app's tests: a plugin's test reaches
// nothing of tests/.
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
  registerAppPort,
  type AppPort,
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
} from '#plugins/testing/bot_context'
export { runNode, type NodeRunInput } from '#plugins/testing/node_context'
export { runPluginTest, storedFile, type PluginTestRun } from '#plugins/testing/plugin_harness'
