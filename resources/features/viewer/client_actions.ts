import type { ClientSideAction } from '#shared/chat/types'
import { safeUrl } from './rich_text_utils'
import { type HostAction, runHostAction } from '../../embed/host_actions'

/**
 * Runs the client-side actions of a reply. Returns the text to send as the next
 * continueChat message when the action produces one (set variable, client HTTP request).
 */

export interface ActionContext {
  /** Resolves after `ms`, early when the conversation is torn down. */
  sleep: (ms: number) => Promise<void>
  /** Inside the embed's iframe: the host page performs same-tab redirects. */
  embedded: boolean
  /** Called when the browser blocked a new tab: the view shows the link instead. */
  onBlockedLink: (url: string) => void
  /**
   * Runs the bot's own scripts somewhere with no builder session: the editor's preview
   * passes its sandboxed runner (script_runner.ts). Without it they run in this page,
   * which must then be the public page, itself an opaque origin or on the viewer host
   * (docs/security.md).
   */
  runScript?: ScriptRunner
}

export interface ScriptArg {
  id: string
  value: unknown
}

export type ScriptRunner = (content: string, args?: ScriptArg[]) => Promise<unknown>

export interface ActionOutcome {
  message?: string
}

export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

export function parseArgValue(value: unknown) {
  // Variables travel as text; scripts expect the numbers and lists they hold.
  if (typeof value !== 'string') return value
  try {
    const parsed: unknown = JSON.parse(value)
    return typeof parsed === 'object' || typeof parsed === 'number' || typeof parsed === 'boolean'
      ? parsed
      : value
  } catch {
    return value
  }
}

/**
 * The builder's own script, run in the page on purpose (the block's "execute on client"
 * option). Variables are passed by name; names that are not identifiers cannot be.
 */
export async function runScript(content: string, args: ScriptArg[] = []): Promise<unknown> {
  const usable = args.filter((arg) => IDENTIFIER.test(arg.id))
  const names = usable.map((arg) => arg.id)
  const values = usable.map((arg) => parseArgValue(arg.value))
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...source: string[]
  ) => (...values: unknown[]) => Promise<unknown>
  const fn = new AsyncFunction(...names, content)
  return fn(...values)
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

function redirect(url: string | undefined, newTab: boolean | undefined, context: ActionContext) {
  const target = safeUrl(url)
  if (!target) return
  if (newTab) {
    // Without "noopener" in the features, so that a blocked popup is seen (null); the
    // opener link is cut by hand right after.
    const opened = window.open(target, '_blank')
    if (opened) opened.opener = null
    else context.onBlockedLink(target)
    return
  }
  if (context.embedded && window.parent !== window) {
    window.parent.postMessage({ type: 'flowcraft:redirect', url: target }, '*')
    return
  }
  window.location.href = target
}

/**
 * Analytics events and the Chatwoot widget belong to the page the visitor sees: the embed
 * script runs them on the host page (resources/embed/core.ts); the public page runs them
 * itself. The editor's preview has no such page (and loads no third-party script into the
 * builder): it skips them.
 */
async function hostAction(action: HostAction, context: ActionContext) {
  if (context.runScript) return
  if (context.embedded && window.parent !== window) {
    const { type } = action
    const payload = { type, [type]: (action as Record<string, unknown>)[type] }
    window.parent.postMessage({ type: 'flowcraft:hostAction', action: payload }, '*')
    return
  }
  await runHostAction(window, action)
}

/** The block's HTTP request run from the visitor's browser; its answer goes back as text. */
async function executeWebhook(options: Record<string, unknown>): Promise<string> {
  const url = safeUrl(options.url)
  if (!url) return stringify({ statusCode: 400, data: 'Invalid URL' })
  const headers: Record<string, string> = {}
  if (options.headers && typeof options.headers === 'object') {
    for (const [key, value] of Object.entries(options.headers as Record<string, unknown>)) {
      headers[key] = String(value)
    }
  }
  try {
    const response = await fetch(url, {
      method: typeof options.method === 'string' ? options.method : 'POST',
      // The URL and headers are the bot's: never with the cookies of the page it runs in.
      credentials: 'omit',
      headers,
      body: options.body === undefined ? undefined : stringify(options.body),
    })
    const text = await response.text()
    let data: unknown = text
    try {
      data = JSON.parse(text)
    } catch {}
    return stringify({ statusCode: response.status, data })
  } catch (error) {
    return stringify({ statusCode: 500, data: String(error) })
  }
}

export async function runClientAction(
  action: ClientSideAction,
  context: ActionContext
): Promise<ActionOutcome> {
  const run = context.runScript ?? runScript
  try {
    switch (action.type) {
      case 'redirect':
        redirect(action.redirect.url, action.redirect.isNewTab, context)
        return {}
      case 'wait':
        await context.sleep(Math.max(0, action.wait.secondsToWaitFor) * 1000)
        return {}
      case 'scriptToExecute':
        await run(action.scriptToExecute.content, action.scriptToExecute.args)
        return {}
      case 'setVariable': {
        const { content, args } = action.setVariable.scriptToExecute
        return { message: stringify(await run(content, args)) }
      }
      case 'googleAnalytics':
      case 'pixel':
      case 'chatwoot':
        await hostAction(action as HostAction, context)
        return {}
      case 'injectStartProps':
        // Only an embed has another page to give them to (the public page has them in its
        // head); the editor's preview has none.
        if (!context.runScript && context.embedded && window.parent !== window) {
          window.parent.postMessage(
            { type: 'flowcraft:startProps', startProps: action.injectStartProps },
            '*'
          )
        }
        return {}
      case 'webhookToExecute':
        return { message: await executeWebhook(action.webhookToExecute) }
      default:
        // listenForWebhook and stream: the server finishes these on its own.
        return {}
    }
  } catch (error) {
    // A builder's broken script must not stop the conversation.
    console.error('[flowcraft] client-side action failed', action.type, error)
    return action.type === 'setVariable' ? { message: '' } : {}
  }
}
