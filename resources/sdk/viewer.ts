/**
 * `#sdk/viewer`: what an input plugin's chat component (viewer.tsx) may use from the public
 * bot page: the props it receives, the themed row, field, send button and error line, option
 * readers, and the sanitizers and helpers the app's own inputs share. Browser only. See
 * docs/plugins.md, "An input's chat component".
 *
 * The app's implementation of the SDK package's `@flowcraft/sdk/viewer` (packages/sdk/src/
 * viewer.ts declares it; a plugin package's viewer imports that name and the bundle resolves
 * it here, vite.config.ts). package_contract.ts checks that both name the same things.
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
export { ChatApiError, chatErrorText, type UploadProgress } from '~/features/viewer/chat_client'
export type { ChatAnswer } from '~/features/viewer/use_chat_flow'
export { sanitizeHtml, sanitizeSvg } from '~/features/viewer/bubbles/sanitize'
export { safeUrl } from '~/features/viewer/rich_text_utils'
export { cn } from '~/lib/utils'
export type { ClassValue } from 'clsx'
export type { ChatInput } from '#shared/chat/types'
export type { Comparison, ConditionContent, Item } from '#shared/bot/types'
