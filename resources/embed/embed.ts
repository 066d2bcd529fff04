/**
 * Flowcraft's embed script (/embed.js): `Flowcraft.initStandard / initPopup / initBubble`
 * and `<flowcraft-standard public-id="...">`. The embeds themselves are in core.ts.
 *
 *   <script src="https://flowcraft.example/embed.js"></script>
 *   <script>Flowcraft.initBubble({ publicId: 'my-bot' })</script>
 */
import {
  PREFIX,
  commands,
  defineStandardElement,
  initBubble,
  initPopup,
  initStandard,
  setScriptOrigin,
} from './core'

declare global {
  interface Window {
    Flowcraft?: typeof api
  }
}

const api = { initStandard, initPopup, initBubble, ...commands }

if (!window.Flowcraft) {
  // Read while the script runs: document.currentScript is null afterwards.
  setScriptOrigin((document.currentScript as HTMLScriptElement | null)?.src)
  window.Flowcraft = api
  defineStandardElement(`${PREFIX}-standard`, 'public-id')
}
