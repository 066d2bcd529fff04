/**
 * The "inject start props" client-side action (start response): what the bot's
 * settings ask of the page it is shown on from the first message. The public bot page has
 * them in its own head already (viewer.edge); in an embed the bot is an iframe, so the chat
 * posts them to the embed script (core.ts), which applies them here on the host page:
 *
 * - `gtmId`: the bot's Google Tag Manager container, loaded once with Google's snippet (its
 *   dataLayer start event, then gtm.js), unless the page has it already;
 * - every prop is also announced as a `flowcraft:startprops` DOM event on window
 *   (`event.detail`), for a page that wants to act on them itself.
 *
 * The bot's custom head code is not carried over: it is a builder's arbitrary HTML, which
 * runs in the bot's own page, not in a page of whoever embeds the bot.
 *
 * Dependency-free: the embed scripts bundle it (app/services/chat/embed_script.ts).
 */

import { scriptAllowed, type ScriptPolicy } from './host_actions'

export interface StartProps {
  gtmId?: string
}

const GTM_ID = /^GTM-[A-Z0-9]+$/i

interface TagWindow extends Window {
  dataLayer?: unknown[]
  google_tag_manager?: Record<string, unknown>
}

function loadTagManager(win: TagWindow, id: string, policy: ScriptPolicy | undefined) {
  if (!GTM_ID.test(id) || win.google_tag_manager?.[id]) return
  const src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`
  // A container runs whatever its owner put in it: the page's script policy decides, as for
  // the host actions (docs/embed.md).
  if (!scriptAllowed(policy, src)) {
    console.error(`[flowcraft] refused to load ${src} into this page`)
    return
  }
  if (win.document.querySelector(`script[src="${src}"]`)) return
  win.dataLayer = win.dataLayer ?? []
  win.dataLayer.push({ 'gtm.start': Date.now(), 'event': 'gtm.js' })
  const script = win.document.createElement('script')
  script.async = true
  script.src = src
  win.document.head.appendChild(script)
}

export function injectStartProps(win: Window, props: unknown, policy?: ScriptPolicy) {
  if (!props || typeof props !== 'object') return
  const { gtmId } = props as StartProps
  const clean: StartProps = {}
  if (typeof gtmId === 'string' && GTM_ID.test(gtmId.trim())) clean.gtmId = gtmId.trim()
  if (clean.gtmId) loadTagManager(win as TagWindow, clean.gtmId, policy)
  win.dispatchEvent(new CustomEvent('flowcraft:startprops', { detail: clean }))
}
