/**
 * `#sdk/sessions`: sessions a service calls back (a Twilio voice call's turns), their state in
 * the database, and the types of a runner.ts `callbacks` export. Server only.
 */
export {
  openPluginSession,
  updatePluginSession,
  closePluginSession,
  SessionCredentialError,
} from '../services/plugin_sessions.js'
export type {
  OpenedPluginSession,
  PluginCallback,
  PluginCallbacks,
  PluginCallbackAnswer,
  PluginCallbackContext,
  PluginCallbackRequest,
} from '../plugins/sessions.js'
