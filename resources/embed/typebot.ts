/**
 * /typebot/web.js: an ES module with the public API of Typebot's web library, so that a
 * Typebot embed switches over by changing the import URL and `apiHost`:
 *
 *   <script type="module">
 *     import Typebot from 'https://flowcraft.example/typebot/web.js'
 *     Typebot.initBubble({ typebot: 'my-bot', apiHost: 'https://flowcraft.example' })
 *   </script>
 *
 * `typebot` is the bot's public id. The options map onto the embeds of core.ts; the ones
 * with no counterpart there (fonts, sizes of the bubble's parts...) are accepted and left
 * to the bot's own theme. docs/migrating-from-typebot.md lists them.
 */
import {
  commands,
  defineStandardElement,
  initBubble,
  initPopup,
  mountStandard,
  setScriptOrigin,
  type BaseOptions,
} from './core'

type Variables = Record<string, string | number | boolean>

interface TypebotOptions {
  typebot: string
  apiHost?: string
  prefilledVariables?: Variables
  /** Ours, not Typebot's: see BaseOptions in core.ts. */
  language?: string
  hostActions?: boolean
  allowedScriptOrigins?: string[]
}

interface StandardProps extends TypebotOptions {
  /** The id of the <typebot-standard> element to fill (the first one by default). */
  id?: string
}

interface PopupProps extends TypebotOptions {
  autoShowDelay?: number
  theme?: { width?: string }
}

interface BubbleProps extends TypebotOptions {
  previewMessage?: { message: string; autoShowDelay?: number; avatarUrl?: string }
  theme?: { button?: { backgroundColor?: string; iconColor?: string } }
}

function base(props: TypebotOptions | undefined): BaseOptions {
  if (!props || typeof props.typebot !== 'string' || !props.typebot) {
    throw new Error('Typebot: `typebot` (the public id of the bot) is required')
  }
  return {
    publicId: props.typebot,
    apiHost: props.apiHost,
    prefilledVariables: props.prefilledVariables,
    language: props.language,
    hostActions: props.hostActions,
    allowedScriptOrigins: props.allowedScriptOrigins,
  }
}

const Typebot = {
  initStandard(props: StandardProps) {
    const element = props?.id
      ? document.getElementById(props.id)
      : document.querySelector<HTMLElement>('typebot-standard')
    if (!element) throw new Error('Typebot: no <typebot-standard> element to fill')
    mountStandard(element, base(props))
  },
  initPopup(props: PopupProps) {
    initPopup({ ...base(props), autoShowDelay: props.autoShowDelay, width: props.theme?.width })
  },
  initBubble(props: BubbleProps) {
    initBubble({
      ...base(props),
      button: props.theme?.button,
      previewMessage: props.previewMessage,
    })
  },
  ...commands,
}

setScriptOrigin(import.meta.url)
defineStandardElement('typebot-standard', 'typebot')

export default Typebot
