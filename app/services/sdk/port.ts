import { registerAppPort, type AppPort } from '../../../packages/sdk/src/port.js'
import {
  knowledgeAgentTool,
  knowledgeStoresOf,
  searchKnowledge,
} from '#services/knowledge/plugin_access'
import * as brain from '#services/sdk/brain'
import * as data from '#services/sdk/data'
import * as google from '#services/sdk/google'
import { runHttpRequest } from '#services/sdk/http_request'
import { slackUserLimit } from '#services/sdk/limits'
import { loopMaxIterations } from '#services/loop_limit'
import { sendEmail, smtpConfigured } from '#services/mailer'
import { extractText } from '#services/documents/extract_text'
import * as oauth from '#services/sdk/oauth'
import {
  closePluginSession,
  openPluginSession,
  updatePluginSession,
} from '#services/plugin_sessions'
import { runWorkflowForPlugin } from '#services/workflows/run_for_plugin'
import {
  comparisonOf,
  filterOf,
  legacyConditionsOf,
  pairsOf,
} from '#services/n8n_import/expressions'

/**
 * The app's implementation of the SDK's port: what `#sdk/*` and `@flowcraft/sdk/*` helpers
 * delegate to. Typed against the SDK's AppPort, so a helper the SDK declares and the app does
 * not answer (or answers with another shape) fails the typecheck.
 */
export const appSdkPort: AppPort = {
  http: { runHttpRequest },
  oauth,
  google,
  ai: { knowledgeStoresOf, knowledgeAgentTool },
  knowledge: { searchKnowledge },
  data,
  n8n: { comparisonOf, filterOf, legacyConditionsOf, pairsOf },
  brain,
  limits: { slackUsers: slackUserLimit, loopIterations: loopMaxIterations },
  sessions: { openPluginSession, updatePluginSession, closePluginSession },
  workflows: { runWorkflowForPlugin },
  mail: { sendEmail, smtpConfigured },
  documents: { extractText },
}

/** Registers the port (at boot: providers/sdk_provider.ts). */
export function registerSdkPort() {
  return registerAppPort(appSdkPort)
}
