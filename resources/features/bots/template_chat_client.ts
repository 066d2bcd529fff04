import type { ChatReply, ContinueChatRequest, StartChatResponse } from '#shared/chat/types'
import type { BotTemplateSummary } from '#shared/bot/templates'
import { HttpError, jsonFetch } from '~/lib/http'
import i18n from '~/lib/i18n'
import { ChatApiError, type ChatClient } from '~/features/viewer/chat_client'

/**
 * The gallery's preview chat: the viewer's ChatView talks to the template preview
 * endpoints, which run the template's JSON without creating a bot or saving results.
 */
export interface TemplatePreviewClient extends ChatClient {
  start(signal?: AbortSignal): Promise<StartChatResponse>
}

function toChatError(error: unknown): never {
  if (error instanceof HttpError)
    throw new ChatApiError(error.message, error.status, error.description)
  throw error
}

const base = (templateId: string) => `/api/v1/templates/${encodeURIComponent(templateId)}/preview`

export function createTemplatePreviewClient(templateId: string): TemplatePreviewClient {
  return {
    start: (signal) =>
      jsonFetch<StartChatResponse>(`${base(templateId)}/startChat`, {
        method: 'POST',
        body: {},
        signal,
      }).catch(toChatError),
    continueChat: (sessionId: string, body: ContinueChatRequest) =>
      jsonFetch<ChatReply>(
        `${base(templateId)}/sessions/${encodeURIComponent(sessionId)}/continueChat`,
        { method: 'POST', body }
      ).catch(toChatError),
    // No file lands anywhere for a template that is only being tried out.
    uploadFile: () =>
      Promise.reject(new ChatApiError(i18n.t('botTemplates.preview.noUploads'), 400)),
  }
}

export async function fetchTemplates(signal?: AbortSignal) {
  const { templates } = await jsonFetch<{ templates: BotTemplateSummary[] }>('/api/v1/templates', {
    signal,
  })
  return templates
}
