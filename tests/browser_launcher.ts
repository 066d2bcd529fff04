import type { Browser, LaunchOptions } from 'playwright'
import { launchChromium as launch } from './chromium.js'

/**
 * The browser suite's Chromium (docs/testing.md, "One browser"). Japa's browser client launches
 * one browser for the whole suite; if that process dies (a renderer crash taking the browser
 * down, the machine running short of memory), every later test would fail at `newContext`
 * with "browser has been closed", and a CI run would report a hundred failures for one crash.
 * The browser handed to Japa is a stand-in that launches a new Chromium when the old one is
 * gone, and says so in the output, where the test running at that moment shows which page
 * took it down.
 */

const CONTEXT_TIMEOUT_MS = 60_000

export async function launchRelaunchingBrowser(options: LaunchOptions): Promise<Browser> {
  let current = await launch(options)
  let closing = false
  let launches = 1

  const watch = (browser: Browser) =>
    browser.on('disconnected', () => {
      if (closing) return
      process.stderr.write(
        `\n[browser] ${new Date().toISOString()} Chromium left during the run (launch ${launches})\n`
      )
    })
  watch(current)

  async function live() {
    if (current.isConnected()) return current
    launches += 1
    current = await launch(options)
    watch(current)
    process.stderr.write(`[browser] launched Chromium again (launch ${launches})\n`)
    return current
  }

  /**
   * A context that does not come within a minute, or an error from a Chromium that is still
   * connected, means a browser in a bad state (stuck, out of memory or disk); it is closed
   * (which ends the process) and the context asked of a new one, once.
   */
  async function newContext(...args: Parameters<Browser['newContext']>) {
    const browser = await live()
    let timer: NodeJS.Timeout | undefined
    const stuck = new Promise<'stuck'>((resolve) => {
      timer = setTimeout(() => resolve('stuck'), CONTEXT_TIMEOUT_MS)
    })
    const created = browser.newContext(...args)
    const first = await Promise.race([created, stuck])
      .catch((error: Error) => error)
      .finally(() => clearTimeout(timer))
    if (first !== 'stuck' && !(first instanceof Error)) return first
    created.then((context) => context.close()).catch(() => {})
    const why =
      first === 'stuck'
        ? `no context from Chromium in ${CONTEXT_TIMEOUT_MS / 1000} s`
        : `Chromium refused a context (${first.message.split('\n')[0]})`
    process.stderr.write(
      `\n[browser] ${new Date().toISOString()} ${why}: closing it (launch ${launches})\n`
    )
    closing = true
    await browser.close().catch(() => {})
    closing = false
    return (await live()).newContext(...args)
  }

  // Japa replaces newContext/newPage on the object it gets with decorated versions that call
  // the originals; those assignments are kept here so they wrap the relaunching methods.
  const assigned = new Map<PropertyKey, unknown>()
  const relaunching: Record<string, unknown> = {
    newContext,
    newPage: async (...args: Parameters<Browser['newPage']>) => (await live()).newPage(...args),
    close: async (...args: Parameters<Browser['close']>) => {
      closing = true
      return current.close(...args)
    },
  }

  return new Proxy({} as Browser, {
    get(_target, property) {
      if (assigned.has(property)) return assigned.get(property)
      if (typeof property === 'string' && property in relaunching) return relaunching[property]
      const value = Reflect.get(current, property)
      return typeof value === 'function' ? value.bind(current) : value
    },
    set(_target, property, value) {
      assigned.set(property, value)
      return true
    },
  })
}
