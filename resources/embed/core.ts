/**
 * The embeds' core: puts a published bot on any web page, inline (standard), in a modal
 * (popup) or behind a floating button (bubble). Every mode is an iframe of the bot's
 * public page, so the chat itself is the same code as the public link. Two scripts are
 * built from it (app/services/chat/embed_script.ts): /embed.js (`Flowcraft`, embed.ts)
 * and the Typebot-compatible module /typebot/web.js (typebot.ts).
 *
 * Dependency-free on purpose: it runs on other people's sites, where it must stay small
 * and must not clash with their scripts or styles (every class is prefixed).
 */

import {
  ScriptRefused,
  isHostAction,
  normalizeOrigins,
  runHostAction,
  type ScriptPolicy,
} from './host_actions'
import { injectStartProps } from './start_props'

export interface BaseOptions {
  publicId: string
  /** Where the bot is served; the origin of this script by default. */
  apiHost?: string
  /** Sent to the bot as query parameters (prefilled variables). */
  prefilledVariables?: Record<string, string | number | boolean>
  /**
   * For a bot in several languages: the language to chat in ('fr', 'pt-BR'), sent as the
   * page's `lang` parameter. Without it the visitor's browser language picks.
   */
  language?: string
  /**
   * false: the bot's actions on this page (analytics events, the Chatwoot widget) are
   * ignored. On by default.
   */
  hostActions?: boolean
  /**
   * Script origins the bot's actions may load into this page beyond the ones integrations
   * declare (a self-hosted Chatwoot: ['https://chat.example.com']).
   */
  allowedScriptOrigins?: string[]
}

export interface StandardOptions extends BaseOptions {
  /** The element to fill, or a CSS selector; the first <flowcraft-standard> by default. */
  element?: HTMLElement | string
}

export interface PopupOptions extends BaseOptions {
  /** Opens by itself after this many milliseconds. */
  autoShowDelay?: number
  /** Width of the modal, any CSS length (800px by default). */
  width?: string
}

export interface BubbleOptions extends BaseOptions {
  button?: { backgroundColor?: string; iconColor?: string }
  /** A teaser next to the button, shown after `autoShowDelay` ms (0 by default). */
  previewMessage?: { message: string; avatarUrl?: string; autoShowDelay?: number }
}

interface Opener {
  open(): void
  close(): void
  toggle(): void
  showPreviewMessage?(message?: string): void
  hidePreviewMessage?(): void
}

export const PREFIX = 'flowcraft'

/** The server's VIEWER_URL, written in when /embed.js is built ('' without one). */
// eslint-disable-next-line @typescript-eslint/naming-convention -- replaced at build time
declare const __FLOWCRAFT_VIEWER_URL__: string

/**
 * The script origins integrations declare in their manifests (`hostScripts`), written in
 * when the embed script is built (app/services/chat/embed_script.ts).
 */
// eslint-disable-next-line @typescript-eslint/naming-convention -- replaced at build time
declare const __FLOWCRAFT_SCRIPT_ORIGINS__: string[]

function scriptPolicy(options: BaseOptions): ScriptPolicy {
  const declared =
    typeof __FLOWCRAFT_SCRIPT_ORIGINS__ === 'undefined' ? [] : __FLOWCRAFT_SCRIPT_ORIGINS__
  return {
    origins: [...normalizeOrigins(declared), ...normalizeOrigins(options.allowedScriptOrigins)],
  }
}

let scriptOrigin = ''

/**
 * Where bots are served unless an embed says (`apiHost`): the viewer host when the server
 * has one (bots never run where builders sign in), else the origin the script came from.
 */
export function setScriptOrigin(url: string | null | undefined) {
  if (typeof __FLOWCRAFT_VIEWER_URL__ === 'string' && __FLOWCRAFT_VIEWER_URL__) {
    scriptOrigin = __FLOWCRAFT_VIEWER_URL__
    return
  }
  try {
    scriptOrigin = url ? new URL(url).origin : window.location.origin
  } catch {
    scriptOrigin = window.location.origin
  }
}

/** What every embed of the page tears down on unmount (elements and listeners). */
let teardowns: (() => void)[] = []

function listen<K extends keyof WindowEventMap>(
  target: Window,
  type: K,
  listener: (event: WindowEventMap[K]) => void
): void
function listen<K extends keyof DocumentEventMap>(
  target: Document,
  type: K,
  listener: (event: DocumentEventMap[K]) => void
): void
function listen(target: Window | Document, type: string, listener: (event: any) => void) {
  target.addEventListener(type, listener)
  teardowns.push(() => target.removeEventListener(type, listener))
}

/** Variables set by setPrefilledVariables, for the chats that start afterwards. */
let laterVariables: Record<string, string | number | boolean> = {}

const CSS = `
.${PREFIX}-frame{display:block;width:100%;height:100%;border:0;background:transparent}
.${PREFIX}-standard{display:block;width:100%;height:100%;min-height:400px}
.${PREFIX}-overlay{position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;padding:16px;background:rgba(15,23,42,.55);opacity:0;transition:opacity .2s}
.${PREFIX}-overlay[data-open]{opacity:1}
.${PREFIX}-overlay[hidden]{display:none}
.${PREFIX}-modal{position:relative;width:100%;height:min(720px,calc(100vh - 32px));border-radius:12px;overflow:hidden;background:#fff;box-shadow:0 25px 50px -12px rgba(0,0,0,.35)}
.${PREFIX}-close{position:absolute;top:8px;right:8px;z-index:1;width:32px;height:32px;border:0;border-radius:999px;background:rgba(255,255,255,.9);color:#111;font:20px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 1px 3px rgba(0,0,0,.2)}
.${PREFIX}-close:focus-visible,.${PREFIX}-button:focus-visible,.${PREFIX}-preview:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.${PREFIX}-button{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:999px;display:flex;align-items:center;justify-content:center;cursor:pointer;box-shadow:0 10px 25px -5px rgba(0,0,0,.3);transition:transform .15s}
.${PREFIX}-button:hover{transform:scale(1.06)}
.${PREFIX}-button svg{width:26px;height:26px}
.${PREFIX}-panel{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:400px;max-width:calc(100vw - 40px);height:min(704px,calc(100vh - 108px));border-radius:16px;overflow:hidden;background:#fff;box-shadow:0 25px 50px -12px rgba(0,0,0,.35);transform-origin:bottom right;transition:transform .2s,opacity .2s}
.${PREFIX}-panel[hidden]{display:block;visibility:hidden;opacity:0;transform:scale(.9);pointer-events:none}
.${PREFIX}-preview{position:fixed;right:88px;bottom:28px;z-index:2147483000;display:flex;align-items:center;gap:8px;max-width:min(280px,calc(100vw - 120px));padding:10px 30px 10px 12px;border:0;border-radius:12px;background:#fff;color:#1f2937;font:14px/1.4 system-ui,sans-serif;text-align:left;cursor:pointer;box-shadow:0 10px 25px -5px rgba(0,0,0,.25)}
.${PREFIX}-preview img{width:32px;height:32px;border-radius:999px;object-fit:cover;flex-shrink:0}
.${PREFIX}-preview-close{position:absolute;top:4px;right:4px;width:22px;height:22px;border:0;border-radius:999px;background:transparent;color:#6b7280;font:16px/1 system-ui,sans-serif;cursor:pointer}
@media (max-width:480px){.${PREFIX}-panel{right:0;bottom:0;width:100vw;max-width:100vw;height:100%;border-radius:0}.${PREFIX}-panel:not([hidden])~.${PREFIX}-button{top:10px;right:10px;bottom:auto;width:40px;height:40px}}
@media (prefers-reduced-motion:reduce){.${PREFIX}-overlay,.${PREFIX}-panel,.${PREFIX}-button{transition:none}}
`

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>'
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>'

function injectStyles() {
  if (document.getElementById(`${PREFIX}-embed-style`)) return
  const style = document.createElement('style')
  style.id = `${PREFIX}-embed-style`
  style.textContent = CSS
  document.head.appendChild(style)
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {}
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  return node
}

function botUrl(options: BaseOptions) {
  const host = (options.apiHost || scriptOrigin || window.location.origin).replace(/\/$/, '')
  const params = new URLSearchParams({ embedded: '1' })
  const variables = { ...options.prefilledVariables, ...laterVariables }
  for (const [key, value] of Object.entries(variables)) {
    params.set(key, String(value))
  }
  if (options.language) params.set('lang', options.language)
  return `${host}/${encodeURIComponent(options.publicId)}?${params.toString()}`
}

/**
 * The bot's page in an iframe. It asks this page for what it cannot do itself: same-tab
 * redirects, closing (Escape pressed inside the chat, where this page hears no key), and
 * the actions on the host page (analytics events, the Chatwoot widget: host_actions.ts).
 */
function createFrame(options: BaseOptions, onClose?: () => void) {
  const policy = scriptPolicy(options)
  const frame = element('iframe', `${PREFIX}-frame`, {
    src: botUrl(options),
    title: 'Chat',
    allow: 'clipboard-write; geolocation; microphone; camera; payment; autoplay; fullscreen',
  })
  listen(window, 'message', (event) => {
    if (event.source !== frame.contentWindow) return
    const data = event.data as { type?: unknown; url?: unknown; action?: unknown } | null
    if (data?.type === `${PREFIX}:close`) onClose?.()
    // Host actions off: nothing of the bot's reaches the page, its start props included.
    if (data?.type === `${PREFIX}:startProps` && options.hostActions !== false) {
      injectStartProps(window, (data as any).startProps, policy)
    }
    // The bot asks; the page decides: the action runs only when the site owner left host
    // actions on, and loads scripts only from the policy's origins.
    if (
      data?.type === `${PREFIX}:hostAction` &&
      options.hostActions !== false &&
      isHostAction(data.action)
    ) {
      runHostAction(window, data.action, policy).catch((error) => {
        if (error instanceof ScriptRefused) console.error(`[flowcraft] ${error.message}`)
        else console.error('[flowcraft] the bot action on this page failed', error)
      })
    }
    if (data?.type !== `${PREFIX}:redirect` || typeof data.url !== 'string') return
    if (/^https?:\/\//i.test(data.url)) window.location.href = data.url
  })
  return frame
}

function assertPublicId(options: BaseOptions | undefined) {
  if (!options || typeof options.publicId !== 'string' || !options.publicId) {
    throw new Error('Flowcraft: `publicId` is required')
  }
}

// ---------------------------------------------------------------------------
// Standard: inline, filling its container
// ---------------------------------------------------------------------------

export function mountStandard(container: HTMLElement, options: BaseOptions) {
  injectStyles()
  container.classList.add(`${PREFIX}-standard`)
  container.replaceChildren(createFrame(options))
  teardowns.push(() => {
    container.replaceChildren()
    container.classList.remove(`${PREFIX}-standard`)
  })
}

export function initStandard(options: StandardOptions) {
  assertPublicId(options)
  const target =
    typeof options.element === 'string'
      ? document.querySelector<HTMLElement>(options.element)
      : (options.element ?? document.querySelector<HTMLElement>(`${PREFIX}-standard`))
  if (!target) throw new Error('Flowcraft: no element to put the bot in')
  mountStandard(target, options)
}

// ---------------------------------------------------------------------------
// Popup and bubble share open/close; the iframe is created on first open, because loading
// the bot starts a chat (and counts one).
// ---------------------------------------------------------------------------

let current: Opener | undefined

export function initPopup(options: PopupOptions) {
  assertPublicId(options)
  injectStyles()
  const overlay = element('div', `${PREFIX}-overlay`, { 'role': 'dialog', 'aria-modal': 'true' })
  overlay.hidden = true
  const modal = element('div', `${PREFIX}-modal`)
  modal.style.maxWidth = options.width || '800px'
  const close = element('button', `${PREFIX}-close`, { 'type': 'button', 'aria-label': 'Close' })
  close.textContent = '×'
  modal.appendChild(close)
  overlay.appendChild(modal)
  document.body.appendChild(overlay)
  teardowns.push(() => overlay.remove())
  let frame: HTMLIFrameElement | undefined
  let returnFocus: Element | null = null

  const opener: Opener = {
    open() {
      if (!overlay.hidden) return
      returnFocus = document.activeElement
      if (!frame) {
        frame = createFrame(options, () => opener.close())
        modal.appendChild(frame)
      }
      overlay.hidden = false
      requestAnimationFrame(() => overlay.setAttribute('data-open', ''))
      frame.focus()
    },
    close() {
      if (overlay.hidden) return
      overlay.removeAttribute('data-open')
      overlay.hidden = true
      if (returnFocus instanceof HTMLElement) returnFocus.focus()
    },
    toggle() {
      if (overlay.hidden) opener.open()
      else opener.close()
    },
  }
  close.addEventListener('click', opener.close)
  overlay.addEventListener('click', (event) => {
    if (event.target === overlay) opener.close()
  })
  listen(document, 'keydown', (event) => {
    if (event.key === 'Escape') opener.close()
  })
  if (typeof options.autoShowDelay === 'number') {
    const timer = setTimeout(opener.open, Math.max(0, options.autoShowDelay))
    teardowns.push(() => clearTimeout(timer))
  }
  current = opener
}

export function initBubble(options: BubbleOptions) {
  assertPublicId(options)
  injectStyles()
  const panel = element('div', `${PREFIX}-panel`, { 'role': 'dialog', 'aria-label': 'Chat' })
  panel.hidden = true
  const button = element('button', `${PREFIX}-button`, {
    'type': 'button',
    'aria-label': 'Open the chat',
    'aria-expanded': 'false',
  })
  button.style.background = options.button?.backgroundColor || '#2563eb'
  button.style.color = options.button?.iconColor || '#ffffff'
  button.innerHTML = CHAT_ICON
  document.body.append(panel, button)
  teardowns.push(() => {
    panel.remove()
    button.remove()
    hidePreview()
  })
  let frame: HTMLIFrameElement | undefined
  let preview: HTMLElement | undefined

  const hidePreview = () => {
    preview?.remove()
    preview = undefined
  }

  const opener: Opener = {
    open() {
      hidePreview()
      if (!frame) {
        frame = createFrame(options, () => {
          opener.close()
          button.focus()
        })
        panel.appendChild(frame)
      }
      panel.hidden = false
      button.innerHTML = CLOSE_ICON
      button.setAttribute('aria-expanded', 'true')
      button.setAttribute('aria-label', 'Close the chat')
      frame.focus()
    },
    close() {
      panel.hidden = true
      button.innerHTML = CHAT_ICON
      button.setAttribute('aria-expanded', 'false')
      button.setAttribute('aria-label', 'Open the chat')
    },
    toggle() {
      if (panel.hidden) opener.open()
      else opener.close()
    },
  }
  button.addEventListener('click', opener.toggle)
  listen(document, 'keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden) {
      opener.close()
      button.focus()
    }
  })

  const showPreview = (message?: string) => {
    const teaser = options.previewMessage
    const text = message ?? teaser?.message
    if (!text || !panel.hidden) return
    hidePreview()
    const node = element('div', `${PREFIX}-preview`, { role: 'button', tabindex: '0' })
    if (teaser?.avatarUrl && /^https?:\/\//i.test(teaser.avatarUrl)) {
      node.appendChild(element('img', '', { src: teaser.avatarUrl, alt: '' }))
    }
    const label = document.createElement('span')
    label.textContent = text
    node.appendChild(label)
    const dismiss = element('button', `${PREFIX}-preview-close`, {
      'type': 'button',
      'aria-label': 'Dismiss',
    })
    dismiss.textContent = '×'
    dismiss.addEventListener('click', (event) => {
      event.stopPropagation()
      hidePreview()
    })
    node.appendChild(dismiss)
    node.addEventListener('click', opener.open)
    node.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault()
        opener.open()
      }
    })
    preview = node
    document.body.appendChild(node)
  }
  opener.showPreviewMessage = showPreview
  opener.hidePreviewMessage = hidePreview

  if (options.previewMessage?.message) {
    const timer = setTimeout(
      () => showPreview(),
      Math.max(0, options.previewMessage.autoShowDelay ?? 0)
    )
    teardowns.push(() => clearTimeout(timer))
  }
  current = opener
}

// ---------------------------------------------------------------------------
// Commands on the last popup or bubble (a page has one of them, as with Typebot)
// ---------------------------------------------------------------------------

export const commands = {
  open: () => current?.open(),
  close: () => current?.close(),
  toggle: () => current?.toggle(),
  showPreviewMessage: (message?: string) => current?.showPreviewMessage?.(message),
  hidePreviewMessage: () => current?.hidePreviewMessage?.(),
  /**
   * Variables for the chats that start from now on (a popup or bubble not opened yet, an
   * inline embed mounted later): a chat already running keeps the values it started with.
   */
  setPrefilledVariables: (variables: Record<string, string | number | boolean>) => {
    if (variables && typeof variables === 'object') {
      laterVariables = { ...laterVariables, ...variables }
    }
  },
  /** Removes every embed of the page: iframes, buttons, modals and their listeners. */
  unmount: () => {
    const pending = teardowns
    teardowns = []
    for (const teardown of pending.reverse()) teardown()
    current = undefined
  },
}

/** `<{tag} {idAttribute}="my-bot" api-host="...">`: an element that fills itself with the bot. */
export function defineStandardElement(tag: string, idAttribute: string) {
  if (customElements.get(tag)) return
  customElements.define(
    tag,
    class extends HTMLElement {
      connectedCallback() {
        const publicId = this.getAttribute(idAttribute)
        if (!publicId || this.querySelector('iframe')) return
        mountStandard(this, {
          publicId,
          apiHost: this.getAttribute('api-host') ?? undefined,
          language: this.getAttribute('language') ?? undefined,
          hostActions: this.getAttribute('host-actions') !== 'off',
          allowedScriptOrigins: (this.getAttribute('allowed-script-origins') ?? '')
            .split(/\s+/)
            .filter(Boolean),
        })
      }
    }
  )
}
