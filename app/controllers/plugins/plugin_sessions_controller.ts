import type { HttpContext } from '@adonisjs/core/http'
import { appUrl } from '#config/app'
import { receivePluginCallback } from '#services/plugin_sessions'

/**
 * Calls of a service back to a plugin's session (a Twilio voice call's turns). Public: the
 * session id in the URL is a random token and the plugin checks the call's signature.
 */
export default class PluginSessionsController {
  async receive({ request, response, params }: HttpContext) {
    const headers: Record<string, string | undefined> = {}
    for (const [name, value] of Object.entries(request.headers())) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    }
    const body = request.body()
    const answer = await receivePluginCallback(
      { pluginId: params.pluginId, sessionId: params.sessionId, callback: params.callback },
      {
        method: request.method(),
        // The URL the service was given (and signed) is the public one, not the one a proxy
        // forwarded here (docs/plugins.md, "Sessions called back by a service").
        url: `${appUrl.replace(/\/+$/, '')}${request.url(true)}`,
        headers,
        body: body && typeof body === 'object' ? (body as Record<string, unknown>) : {},
        rawBody: request.raw() ?? '',
      }
    )
    for (const [name, value] of Object.entries(answer.headers ?? {})) response.header(name, value)
    return response.status(answer.status ?? 200).send(answer.body ?? '')
  }
}
