/**
 * `#sdk/viewer`: what an input plugin's chat component (viewer.tsx) may use from the public
 * bot page: the props it receives, the themed row, field, send button and error line, option
 * readers, and the sanitizers and helpers the app's own inputs share. Browser only. See
 * docs/plugins.md, "An input's chat component".
 */
export {
  FilterBox,
  InputError,
  InputRow,
  SendButton,
  joinSelected,
  normalizeSearch,
  optionFlag,
  optionNumber,
  optionText,
  useAutoFocus,
  useChoiceSelection,
  type ChatInputProps,
} from '~/features/viewer/inputs/shared'
export { TextFieldInput, type FieldKind } from '~/features/viewer/inputs/text_field'
export { ChatApiError, chatErrorText } from '~/features/viewer/chat_client'
export { sanitizeHtml, sanitizeSvg } from '~/features/viewer/bubbles/sanitize'
export { safeUrl } from '~/features/viewer/rich_text_utils'
export { cn } from '~/lib/utils'
export type { Item } from '#shared/bot/types'
