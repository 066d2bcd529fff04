import type { Runner } from '#sdk/plugin'
import type { VideoMessage, VideoProvider } from '#sdk/runner'
import type plugin from './index.js'

const DEFAULTS = { height: 400, aspectRatio: '16/9', maxWidth: '100%' }
/** TikToks and YouTube shorts are filmed upright. */
const VERTICAL = { aspectRatio: '9/16', maxWidth: '400px' }

interface DetectedVideo {
  type: VideoProvider
  id?: string
  isVertical?: boolean
}

const YOUTUBE_HOSTS = /^(?:www\.|m\.|music\.)?(?:youtube\.com|youtube-nocookie\.com)$/

/** The provider and the provider's video id of a link; 'url' plays the file itself. */
export function detectVideo(rawUrl: string | undefined): DetectedVideo {
  let url: URL
  try {
    url = new URL((rawUrl ?? '').trim())
  } catch {
    return { type: 'url' }
  }
  const host = url.hostname.toLowerCase()
  const parts = url.pathname.split('/').filter(Boolean)
  if (host === 'youtu.be' && parts[0]) return { type: 'youtube', id: parts[0] }
  if (YOUTUBE_HOSTS.test(host)) {
    const v = url.searchParams.get('v')
    if (v) return { type: 'youtube', id: v }
    if (['embed', 'shorts', 'live', 'v'].includes(parts[0]) && parts[1]) {
      const video: DetectedVideo = { type: 'youtube', id: parts[1] }
      if (parts[0] === 'shorts') video.isVertical = true
      return video
    }
  }
  if (host === 'vimeo.com' || host.endsWith('.vimeo.com')) {
    const id = parts.find((part) => /^\d+$/.test(part))
    if (id) return { type: 'vimeo', id }
  }
  if (host === 'tiktok.com' || host.endsWith('.tiktok.com')) {
    const index = parts.indexOf('video')
    const id = index >= 0 ? parts[index + 1] : undefined
    if (id) return { type: 'tiktok', id, isVertical: true }
  }
  if (host === 'gumlet.tv' || host.endsWith('.gumlet.io') || host.endsWith('.gumlet.tv')) {
    const id = parts.at(-1)
    if (id) return { type: 'gumlet', id }
  }
  return { type: 'url' }
}

/** Options typed as {{variables}} arrive as text once substituted. */
function heightOf(value: unknown, fallback: number) {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value)
    return Number.isFinite(number) ? number : value.trim()
  }
  return fallback
}

/**
 * New blocks store the landscape defaults, so for an upright video those read as "not
 * chosen" and give way to the upright size.
 */
function sizeOf(value: unknown, landscape: string, fallback: string) {
  const text = typeof value === 'string' ? value.trim() : ''
  return text === '' || (text === landscape && fallback !== landscape) ? fallback : text
}

export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const url = (options.url ?? '').trim()
  const detected = detectVideo(url)
  const sizes = detected.isVertical ? { ...DEFAULTS, ...VERTICAL } : DEFAULTS
  const content: VideoMessage['content'] = {
    url,
    type: detected.type,
    height: heightOf(options.height, sizes.height),
    aspectRatio: sizeOf(options.aspectRatio, DEFAULTS.aspectRatio, sizes.aspectRatio),
    maxWidth: sizeOf(options.maxWidth, DEFAULTS.maxWidth, sizes.maxWidth),
    areControlsDisplayed: options.areControlsDisplayed ?? true,
    isAutoplayEnabled: options.isAutoplayEnabled ?? true,
  }
  if (detected.id) content.id = detected.id
  if (options.queryParamsStr) content.queryParamsStr = options.queryParamsStr
  const message: VideoMessage = { id: bot!.block.id, type: 'video', content }
  return { messages: [message] }
}
