import type { RunnerVariables, VariableValue } from '../runner_types.js'
import type { ContentPart, ChatMessage, ToolCall } from './types.js'
export type { ContentPart, ChatMessage, ToolCall }

/**
 * Chat messages as the blocks store them (role system|user|assistant
 * with content, or a Dialogue entry reading a list variable) turned into the
 * OpenAI-compatible shape every provider helper starts from.
 */
export interface StoredMessage {
  role?: 'system' | 'user' | 'assistant' | 'Dialogue'
  content?: string
  dialogueVariableId?: string
  startsBy?: 'user' | 'assistant'
}

function asList(value: VariableValue): string[] {
  if (Array.isArray(value)) return value.map(String)
  if (value === null || value === undefined || value === '') return []
  return [String(value)]
}

/**
 * A Dialogue variable holds the conversation as a list, one entry per message, alternating
 * from `startsBy` (default user). Empty entries are skipped.
 */
export function dialogueMessages(
  value: VariableValue,
  startsBy: 'user' | 'assistant' = 'user'
): ChatMessage[] {
  const other = startsBy === 'user' ? 'assistant' : 'user'
  return asList(value)
    .map((content, index) => ({
      role: index % 2 === 0 ? startsBy : other,
      content,
    }))
    .filter((message) => message.content.trim() !== '') as ChatMessage[]
}

export function toChatMessages(
  stored: readonly StoredMessage[] | undefined,
  variables: RunnerVariables
): ChatMessage[] {
  const messages: ChatMessage[] = []
  for (const entry of stored ?? []) {
    if (entry.role === 'Dialogue') {
      if (!entry.dialogueVariableId) continue
      messages.push(
        ...dialogueMessages(variables.get(entry.dialogueVariableId), entry.startsBy ?? 'user')
      )
      continue
    }
    const content = entry.content ?? ''
    if (!content.trim()) continue
    messages.push({ role: entry.role ?? 'user', content })
  }
  return messages
}

/**
 * OpenAI vision models: gpt-4-turbo*, gpt-4o*, gpt-4*vision-preview,
 * but not gpt-4-turbo-preview.
 */
export function isOpenAiVisionModel(model: string | undefined): boolean {
  if (!model) return false
  if (model === 'gpt-4-turbo-preview') return false
  return (
    model.startsWith('gpt-4-turbo') ||
    model.startsWith('gpt-4o') ||
    /^gpt-4.*vision-preview$/.test(model)
  )
}

/** Anthropic vision: every claude-3 model. */
export function isAnthropicVisionModel(model: string | undefined): boolean {
  return Boolean(model && /^claude-3/.test(model))
}

const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g

/**
 * Images in user messages for vision models: each URL in the text whose content type is
 * an image ("images count only if the content type is image") becomes an
 * image part; the text stays as it is. `contentTypeOf` asks the server (a HEAD request).
 */
export async function withImageParts(
  messages: ChatMessage[],
  contentTypeOf: (url: string) => Promise<string | undefined>
): Promise<ChatMessage[]> {
  const out: ChatMessage[] = []
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content !== 'string') {
      out.push(message)
      continue
    }
    const urls = [...new Set(message.content.match(URL_PATTERN) ?? [])]
    const images: string[] = []
    for (const url of urls) {
      const type = await contentTypeOf(url).catch(() => undefined)
      if (type?.startsWith('image/')) images.push(url)
    }
    if (images.length === 0) {
      out.push(message)
      continue
    }
    out.push({
      role: 'user',
      content: [
        { type: 'text', text: message.content },
        ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
      ],
    })
  }
  return out
}
