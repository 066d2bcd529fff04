import type { CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import type { AudioMessage, EmbedMessage, ImageMessage, VideoMessage } from '#shared/chat/types'
import { safeUrl } from '../rich_text_utils'

/** 400, "400" and "400px" all mean pixels; other units pass through. */
export function cssLength(value: number | string | undefined, fallback: string) {
  if (typeof value === 'number' && Number.isFinite(value)) return `${value}px`
  if (typeof value === 'string' && value.trim()) {
    const text = value.trim()
    return /^\d+(\.\d+)?$/.test(text) ? `${text}px` : text
  }
  return fallback
}

export function ImageContent({ message }: { message: ImageMessage }) {
  const src = safeUrl(message.content.url)
  const link = safeUrl(message.content.clickLink?.url)
  if (!src) return null
  const image = (
    <img
      src={src}
      alt={message.content.clickLink?.alt ?? ''}
      loading="lazy"
      className="block h-auto max-h-[32rem] w-auto max-w-full object-contain"
    />
  )
  return link ? (
    <a href={link} target="_blank" rel="noopener noreferrer" className="block">
      {image}
    </a>
  ) : (
    image
  )
}

/** The player page of each provider, from the video's id. */
function providerEmbedUrl(content: VideoMessage['content']): string | undefined {
  // Ids are letters, digits, dashes and underscores (Vimeo adds "/hash" for unlisted videos).
  const id = content.id?.replace(/[^\w/-]/g, '')
  if (!id) return undefined
  const autoplay = content.isAutoplayEnabled !== false
  const controls = content.areControlsDisplayed !== false
  const params = new URLSearchParams(content.queryParamsStr?.replace(/^\?/, '') ?? '')
  let base: string
  switch (content.type) {
    case 'youtube':
      base = `https://www.youtube.com/embed/${id}`
      if (autoplay) params.set('autoplay', '1')
      if (!controls) params.set('controls', '0')
      break
    case 'vimeo': {
      const [videoId, hash] = id.split('/')
      base = `https://player.vimeo.com/video/${videoId}`
      if (hash) params.set('h', hash)
      if (autoplay) params.set('autoplay', '1')
      if (!controls) params.set('controls', '0')
      break
    }
    case 'tiktok':
      base = `https://www.tiktok.com/embed/v2/${id}`
      break
    case 'gumlet':
      base = `https://play.gumlet.io/embed/${id}`
      if (autoplay) params.set('autoplay', 'true')
      break
    default:
      return undefined
  }
  const query = params.toString()
  return query ? `${base}?${query}` : base
}

function videoBox(content: VideoMessage['content']): CSSProperties {
  const ratio = content.aspectRatio?.replace(/\s/g, '')
  const style: CSSProperties = { width: '100%', maxWidth: content.maxWidth || '100%' }
  if (ratio && /^\d+(\.\d+)?\/\d+(\.\d+)?$/.test(ratio)) style.aspectRatio = ratio
  else style.height = cssLength(content.height, '400px')
  return style
}

export function VideoContent({ message }: { message: VideoMessage }) {
  const { t } = useTranslation()
  const content = message.content
  const style = videoBox(content)
  if (content.type && content.type !== 'url') {
    const src = providerEmbedUrl(content)
    if (!src) return null
    return (
      <iframe
        src={src}
        title={t('viewer.media.video')}
        style={style}
        className="border-0"
        allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
        allowFullScreen
      />
    )
  }
  const src = safeUrl(content.url)
  if (!src) return null
  return (
    <video
      src={src}
      style={style}
      className="bg-black object-contain"
      controls={content.areControlsDisplayed !== false}
      autoPlay={content.isAutoplayEnabled !== false}
      playsInline
      aria-label={t('viewer.media.video')}
    />
  )
}

export function AudioContent({ message }: { message: AudioMessage }) {
  const { t } = useTranslation()
  const src = safeUrl(message.content.url)
  if (!src) return null
  return (
    <audio
      src={src}
      controls
      autoPlay={message.content.isAutoplayEnabled !== false}
      className="w-full max-w-80"
      aria-label={t('viewer.media.audio')}
    />
  )
}

/**
 * An embed bubble's sandbox. Another site keeps its own origin (its scripts and storage
 * work as there); a page of this host loses it, so no bot can frame a page of the app and
 * script it with the session of whoever looks at the chat (docs/security.md).
 */
export function embedSandbox(src: string) {
  const base =
    'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads allow-presentation'
  let sameHost = true
  try {
    sameHost = new URL(src, window.location.href).origin === window.location.origin
  } catch {}
  return sameHost ? base : `${base} allow-same-origin`
}

export function EmbedContent({ message }: { message: EmbedMessage }) {
  const { t } = useTranslation()
  const src = safeUrl(message.content.url)
  if (!src) return null
  return (
    <iframe
      src={src}
      sandbox={embedSandbox(src)}
      title={t('viewer.media.embed')}
      style={{ height: cssLength(message.content.height, '400px') }}
      className="w-full border-0"
      allow="autoplay; clipboard-write; encrypted-media; fullscreen; geolocation; payment"
    />
  )
}
