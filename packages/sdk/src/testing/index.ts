/**
 * `@flowcraft/sdk/testing`: what a plugin's tests use with no app: `runPluginTest` runs a
 * plugin from its folder on either surface, and stand-in HTTP servers play the service it
 * calls. Node only.
 */
export * from './run_plugin_test.js'
export * from './stand_in.js'
// Outside the app, the helpers of /ai, /data, /google, /http, /n8n and /oauth have no app to
// call: a test that needs one registers its stand-in of that part here.
export { registerAppPort, type AppPort } from '../port.js'
