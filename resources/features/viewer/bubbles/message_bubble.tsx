import { lazy, memo, Suspense } from 'react'
import type { ChatMessage } from '#shared/chat/types'
import { cn } from '~/lib/utils'
import { safeUrl } from '../rich_text_utils'
import { AudioContent, EmbedContent, ImageContent, VideoContent } from './media'
import { RichText } from './rich_text'

/*
 * Markdown (AI answers, mostly) needs a parser and a sanitiser: their code downloads with
 * the first Markdown bubble, not with the chat; the text shows as typed until then.
 */
const MarkdownText = lazy(() =>
  import('./markdown_text').then((module) => ({ default: module.MarkdownText }))
)

function MessageContent({ message }: { message: ChatMessage }) {
  switch (message.type) {
    case 'text':
      return message.content.type === 'markdown' ? (
        <Suspense
          fallback={
            <div className="break-words whitespace-pre-wrap">{message.content.markdown}</div>
          }
        >
          <MarkdownText markdown={message.content.markdown} />
        </Suspense>
      ) : (
        <RichText nodes={message.content.richText ?? []} />
      )
    case 'image':
      return <ImageContent message={message} />
    case 'video':
      return <VideoContent message={message} />
    case 'audio':
      return <AudioContent message={message} />
    case 'embed':
      return <EmbedContent message={message} />
    default:
      return null
  }
}

/** Media span the conversation's width; text hugs its words. */
const LAYOUT: Record<ChatMessage['type'], string> = {
  text: 'max-w-full px-4 py-2',
  image: 'max-w-full overflow-hidden',
  video: 'w-full overflow-hidden',
  embed: 'w-full overflow-hidden',
  audio: 'w-full max-w-80 p-2',
}

/** One bot message. Memoised: long conversations re-render only the newest bubble. */
export const HostBubble = memo(function HostBubbleView({ message }: { message: ChatMessage }) {
  return (
    <div
      className={cn('fc-host-bubble min-w-0 text-[15px] leading-relaxed', LAYOUT[message.type])}
      data-message-type={message.type}
    >
      <MessageContent message={message} />
    </div>
  )
})

function fileName(url: string) {
  const last = url.split('?')[0].split('/').pop() || url
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

export const GuestBubble = memo(function GuestBubbleView({
  text,
  attachedFileUrls,
}: {
  text: string
  attachedFileUrls?: string[]
}) {
  return (
    <div className="fc-guest-bubble max-w-full min-w-0 px-4 py-2 text-[15px] leading-relaxed break-words whitespace-pre-wrap">
      {text}
      {attachedFileUrls && attachedFileUrls.length > 0 && (
        <ul className="mt-1 grid gap-0.5 text-sm">
          {attachedFileUrls.map((url) => (
            <li key={url} className="truncate">
              <a
                href={safeUrl(url)}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
              >
                {fileName(url)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
})
