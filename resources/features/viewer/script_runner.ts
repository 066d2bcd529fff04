import { IDENTIFIER, parseArgValue, type ScriptArg, type ScriptRunner } from './client_actions'

/**
 * The editor preview's runner for the bot's client-side scripts (Code and Set variable
 * blocks "executed on client", Chatwoot). The preview lives in the builder's page, whose
 * origin holds the builder's session: the scripts run instead in a hidden iframe served
 * with a CSP sandbox (opaque origin, no cookies, no access to this page), and only their
 * results come back. docs/security.md, "What runs where".
 */

export const SCRIPT_RUNNER_PATH = '/preview/script-runner'

interface RunnerReply {
  type: 'flowcraft:script-result'
  id: number
  ok: boolean
  value?: string
  error?: string
}

export interface SandboxedScriptRunner {
  run: ScriptRunner
  dispose: () => void
}

/** Made on first use, so a preview without client-side scripts loads no runner. */
export function createSandboxedScriptRunner(path = SCRIPT_RUNNER_PATH): SandboxedScriptRunner {
  let frame: HTMLIFrameElement | null = null
  let ready: Promise<Window> | null = null
  let seed = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()

  const onMessage = (event: MessageEvent) => {
    if (!frame || event.source !== frame.contentWindow) return
    const data = event.data as RunnerReply | null
    if (data?.type !== 'flowcraft:script-result') return
    const waiting = pending.get(data.id)
    if (!waiting) return
    pending.delete(data.id)
    if (data.ok) waiting.resolve(data.value)
    else waiting.reject(new Error(data.error ?? 'Script failed'))
  }

  const load = () => {
    ready ??= new Promise<Window>((resolve, reject) => {
      frame = document.createElement('iframe')
      // The page's own CSP says the same; the attribute holds even if a proxy drops it.
      frame.setAttribute(
        'sandbox',
        'allow-scripts allow-popups allow-popups-to-escape-sandbox allow-modals'
      )
      frame.setAttribute('aria-hidden', 'true')
      frame.tabIndex = -1
      frame.dataset.testid = 'preview-script-runner'
      frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden'
      const onReady = (event: MessageEvent) => {
        if (!frame || event.source !== frame.contentWindow) return
        if ((event.data as { type?: string } | null)?.type !== 'flowcraft:script-runner-ready')
          return
        window.removeEventListener('message', onReady)
        resolve(frame.contentWindow!)
      }
      window.addEventListener('message', onReady)
      window.addEventListener('message', onMessage)
      frame.addEventListener('error', () => reject(new Error('Script runner failed to load')))
      frame.src = path
      document.body.appendChild(frame)
    })
    return ready
  }

  const run: ScriptRunner = async (content: string, args: ScriptArg[] = []) => {
    const target = await load()
    const usable = args.filter((arg) => IDENTIFIER.test(arg.id))
    const id = ++seed
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      target.postMessage(
        {
          type: 'flowcraft:run-script',
          id,
          content,
          names: usable.map((arg) => arg.id),
          values: usable.map((arg) => parseArgValue(arg.value)),
        },
        '*'
      )
    })
  }

  const dispose = () => {
    window.removeEventListener('message', onMessage)
    for (const waiting of pending.values()) waiting.reject(new Error('Preview closed'))
    pending.clear()
    frame?.remove()
    frame = null
    ready = null
  }

  return { run, dispose }
}
