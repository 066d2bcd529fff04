/**
 * `@flowcraft/sdk/testing`: what a plugin's tests use with no app: `runPluginTest` runs a
 * plugin from its folder on either surface, and stand-in HTTP servers play the service it
 * calls. Node only.
 */
export * from './run_plugin_test.js'
export * from './stand_in.js'
