/**
 * The client-side actions that act on the page the bot is shown on (Google
 * Analytics, tracking pixel, Chatwoot): a Google Analytics event, a pixel event, the
 * Chatwoot widget shown or closed. On the public page they run there; in an embed the chat
 * is an iframe, so it posts them to the embed script (core.ts), which runs them on the host
 * page, where the site's gtag, fbq and support widget live.
 *
 * Dependency-free: the embed scripts bundle it (app/services/chat/embed_script.ts).
 */

type Call = (...args: unknown[]) => void

interface HostWindow extends Window {
  gtag?: Call
  dataLayer?: unknown[]
  fbq?: Call & { callMethod?: Call; queue?: unknown[]; loaded?: boolean; version?: string }
  _fbq?: unknown
  chatwootSDK?: { run: (settings: { websiteToken: string; baseUrl: string }) => void }
  $chatwoot?: {
    toggle: (state?: 'open' | 'close') => void
    setUser?: (id: string, user: Record<string, string>) => void
  }
}

export interface GoogleAnalyticsOptions {
  trackingId?: string
  category?: string
  action?: string
  label?: string
  value?: number | string
  sendTo?: string
}

export interface PixelOptions {
  pixelId?: string
  eventType?: string
  /** The event name when eventType is Custom. */
  name?: string
  params?: { key?: string; value?: unknown }[] | Record<string, unknown>
}

export interface ChatwootOptions {
  task?: 'Show widget' | 'Close widget'
  baseUrl?: string
  websiteToken?: string
  user?: { id?: string; email?: string; name?: string; avatarUrl?: string; phoneNumber?: string }
}

export type HostAction =
  | { type: 'googleAnalytics'; googleAnalytics: GoogleAnalyticsOptions }
  | { type: 'pixel'; pixel: PixelOptions }
  | { type: 'chatwoot'; chatwoot: ChatwootOptions }

export const HOST_ACTION_TYPES = ['googleAnalytics', 'pixel', 'chatwoot'] as const

export function isHostAction(action: unknown): action is HostAction {
  const type = (action as { type?: unknown } | null)?.type
  return typeof type === 'string' && (HOST_ACTION_TYPES as readonly string[]).includes(type)
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

/**
 * What a host page lets a bot's actions load. The bot chooses the URLs (a Chatwoot block's
 * base URL is any address), so a script is loaded only from an origin an integration
 * declares in its manifest (`hostScripts`, written into the embed script by the server) or
 * one the site owner lists in the embed's options; anything else is refused.
 * Without a policy (the bot's own public page, where its head code runs anyway) nothing is
 * filtered.
 */
export interface ScriptPolicy {
  /** Origins such as https://app.chatwoot.com. */
  origins: readonly string[]
}

function originOf(src: string): string | undefined {
  try {
    return new URL(src).origin
  } catch {
    return undefined
  }
}

export function scriptAllowed(policy: ScriptPolicy | undefined, src: string) {
  if (!policy) return true
  const origin = originOf(src)
  return !!origin && origin !== 'null' && policy.origins.includes(origin)
}

/** The policy's origins in the one form comparisons use (scheme://host[:port]). */
export function normalizeOrigins(values: readonly unknown[] | undefined): string[] {
  const origins: string[] = []
  for (const value of values ?? []) {
    const origin = typeof value === 'string' ? originOf(value.trim()) : undefined
    if (origin && origin !== 'null' && /^https?:/.test(origin)) origins.push(origin)
  }
  return origins
}

export class ScriptRefused extends Error {
  constructor(src: string) {
    super(
      `refused to load ${src} into this page: its origin is not declared by an integration ` +
        'nor listed in the embed option `allowedScriptOrigins`'
    )
    this.name = 'ScriptRefused'
  }
}

function addScript(win: HostWindow, src: string, policy: ScriptPolicy | undefined): Promise<void> {
  if (!scriptAllowed(policy, src)) return Promise.reject(new ScriptRefused(src))
  return new Promise((resolve, reject) => {
    const script = win.document.createElement('script')
    script.async = true
    script.src = src
    script.onload = () => resolve()
    script.onerror = () => reject(new Error(`${src} did not load`))
    win.document.head.appendChild(script)
  })
}

/** A refused script is said on the console (the site owner's place to look); a failed load is not. */
function reportRefusal(error: unknown) {
  if (error instanceof ScriptRefused) console.error(`[flowcraft] ${error.message}`)
}

/** gtag as Google's snippet defines it, loaded only when the page has none. */
function ensureGtag(
  win: HostWindow,
  trackingId: string,
  policy: ScriptPolicy | undefined
): Call | undefined {
  if (typeof win.gtag === 'function') return win.gtag
  if (!/^[A-Z]{1,3}-[A-Z0-9-]+$/i.test(trackingId)) return undefined
  win.dataLayer = win.dataLayer ?? []
  win.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array.

    win.dataLayer!.push(arguments)
  }
  win.gtag('js', new Date())
  win.gtag('config', trackingId)
  void addScript(
    win,
    `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(trackingId)}`,
    policy
  ).catch(reportRefusal)
  return win.gtag
}

export function trackGoogleAnalytics(
  win: HostWindow,
  options: GoogleAnalyticsOptions,
  policy?: ScriptPolicy
) {
  const gtag = ensureGtag(win, text(options.trackingId), policy)
  if (!gtag) return
  const params: Record<string, unknown> = {}
  if (text(options.category)) params.event_category = text(options.category)
  if (text(options.label)) params.event_label = text(options.label)
  const value = Number(options.value)
  if (options.value !== undefined && options.value !== '' && Number.isFinite(value)) {
    params.value = value
  }
  const sendTo = text(options.sendTo) || text(options.trackingId)
  if (sendTo) params.send_to = sendTo
  gtag('event', text(options.action) || 'event', params)
}

/** fbq as Meta's snippet defines it (calls queued until fbevents.js runs them). */
function ensureFbq(
  win: HostWindow,
  pixelId: string,
  policy: ScriptPolicy | undefined
): Call | undefined {
  if (typeof win.fbq === 'function') return win.fbq
  if (!/^\d{5,20}$/.test(pixelId)) return undefined
  const fbq = function (this: unknown, ...args: unknown[]) {
    if (fbq.callMethod) fbq.callMethod(...args)
    else fbq.queue!.push(args)
  } as NonNullable<HostWindow['fbq']>
  fbq.queue = []
  fbq.loaded = true
  fbq.version = '2.0'
  win.fbq = fbq
  win._fbq = win._fbq ?? fbq
  void addScript(win, 'https://connect.facebook.net/en_US/fbevents.js', policy).catch(reportRefusal)
  fbq('init', pixelId)
  return fbq
}

export function trackPixel(win: HostWindow, options: PixelOptions, policy?: ScriptPolicy) {
  const custom = options.eventType === 'Custom'
  const event = custom ? text(options.name) : text(options.eventType)
  if (!event) return
  const fbq = ensureFbq(win, text(options.pixelId), policy)
  if (!fbq) return
  const params: Record<string, unknown> = {}
  if (Array.isArray(options.params)) {
    for (const entry of options.params) {
      if (entry?.key && entry.value !== undefined && entry.value !== '') {
        params[entry.key] = entry.value
      }
    }
  } else if (options.params && typeof options.params === 'object') {
    Object.assign(params, options.params)
  }
  fbq(custom ? 'trackCustom' : 'track', event, params)
}

/** The origin Chatwoot is served from (its cloud or a self-hosted install). */
function chatwootBase(baseUrl: string | undefined) {
  try {
    const url = new URL(text(baseUrl) || 'https://app.chatwoot.com')
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

function chatwootUser(win: HostWindow, user: ChatwootOptions['user']) {
  const id = text(user?.id)
  if (!id || typeof win.$chatwoot?.setUser !== 'function') return
  const details: Record<string, string> = {}
  if (text(user?.email)) details.email = text(user?.email)
  if (text(user?.name)) details.name = text(user?.name)
  if (text(user?.avatarUrl)) details.avatar_url = text(user?.avatarUrl)
  if (text(user?.phoneNumber)) details.phone_number = text(user?.phoneNumber)
  win.$chatwoot.setUser(id, details)
}

/**
 * Chatwoot's website widget: its SDK (`{baseUrl}/packs/js/sdk.js`) is loaded once and run
 * with the inbox's website token; the widget announces itself with `chatwoot:ready`, then
 * `$chatwoot.toggle('open' | 'close')` shows or hides the conversation.
 */
export async function runChatwoot(
  win: HostWindow,
  options: ChatwootOptions,
  policy?: ScriptPolicy
) {
  if (options.task === 'Close widget') {
    win.$chatwoot?.toggle('close')
    return
  }
  if (win.$chatwoot) {
    chatwootUser(win, options.user)
    win.$chatwoot.toggle('open')
    return
  }
  const baseUrl = chatwootBase(options.baseUrl)
  const websiteToken = text(options.websiteToken)
  if (!baseUrl || !websiteToken) return
  const sdk = `${baseUrl}/packs/js/sdk.js`
  // Refused before listening for the widget: nothing is left waiting on the page.
  if (!win.chatwootSDK && !scriptAllowed(policy, sdk)) throw new ScriptRefused(sdk)
  // A wrong token never gets ready: give up after a while rather than wait forever.
  const ready = new Promise<void>((resolve) => {
    win.addEventListener('chatwoot:ready', () => resolve(), { once: true })
    setTimeout(resolve, 15_000)
  })
  if (!win.chatwootSDK) await addScript(win, sdk, policy)
  win.chatwootSDK?.run({ websiteToken, baseUrl })
  await ready
  chatwootUser(win, options.user)
  // Set by the SDK meanwhile (read again: the check above saw none).
  const widget: HostWindow['$chatwoot'] = (win as HostWindow).$chatwoot
  widget?.toggle('open')
}

/**
 * Runs a host action; with a policy (an embed on another site), scripts load only from its
 * origins. Actions that load nothing (an event for the page's own gtag) run either way.
 */
export async function runHostAction(win: Window, action: HostAction, policy?: ScriptPolicy) {
  const host = win as HostWindow
  switch (action.type) {
    case 'googleAnalytics':
      return trackGoogleAnalytics(host, action.googleAnalytics ?? {}, policy)
    case 'pixel':
      return trackPixel(host, action.pixel ?? {}, policy)
    case 'chatwoot':
      return runChatwoot(host, action.chatwoot ?? {}, policy)
  }
}
