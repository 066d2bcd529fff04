import logger from '@adonisjs/core/services/logger'
import { appUrl } from '#config/app'
import { DEFAULT_FILE_LIMIT_MB, chatFileKey } from '#services/chat/chat_files'
import { newId } from '#services/ids'
import { putFile, safeFileName } from '#services/storage'
import { readBodyWithin } from '#services/limited_body'
import { planFor } from '#services/capabilities'
import { pluginRegistry } from '#services/plugin_registry'
import type { SessionState } from '#engine/bot/state'
import type { PluginDeclaration } from '#plugins/define_plugin'

/**
 * Files and voice notes a contact sends on a channel (docs/channels.md, "Files and voice
 * notes"). Each platform's adapter says how to download them; this module decides whether
 * the question being asked takes them, applies the plan and the size limit, and stores
 * them as the web's file upload does, so the answer carries the stored URL.
 */

export type MediaKind = 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker'

export interface DownloadedMedia {
  bytes: Buffer
  contentType?: string
  /** The platform's name for the file, when it gives one. */
  fileName?: string
}

export interface IncomingMedia {
  kind: MediaKind
  /** The platform's id of the file (Telegram's file_id, WhatsApp's media id). */
  id: string
  /** The size the platform announces before the download, when it does. */
  size?: number
  fileName?: string
  mimeType?: string
  /** Fetches the bytes through the platform's API; refuses past maxBytes. */
  download: (maxBytes: number) => Promise<DownloadedMedia>
}

/** What a question makes of a file: stored URLs for the answer, or a message back. */
export type MediaAnswer =
  { kind: 'files'; urls: string[]; filesOnly: boolean } | { kind: 'refused'; message: string }

export const MEDIA_NOT_ACCEPTED = 'Files cannot be received on this bot’s plan.'

export const DOWNLOAD_FAILED = 'This file could not be received. Please try again.'

export function tooLargeMessage(limitMb: number) {
  return `This file is too large: the limit is ${limitMb} MB.`
}

/** A download that went past the limit (the platform's announced size may be missing). */
export class MediaTooLarge extends Error {}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
}

function fileNameOf(media: IncomingMedia, downloaded: DownloadedMedia) {
  const given = downloaded.fileName || media.fileName
  if (given) return safeFileName(given.split('/').pop())
  const type = (downloaded.contentType || media.mimeType || '').split(';')[0].trim()
  return `${media.kind}.${EXTENSIONS[type] ?? 'bin'}`
}

type Takes = NonNullable<ReturnType<NonNullable<PluginDeclaration['receivesFiles']>>>

/** How the awaited question takes a file of this kind, or null when it takes none. */
export async function takesFile(state: SessionState, kind: MediaKind): Promise<Takes | null> {
  const awaiting = state.awaiting
  if (!awaiting || awaiting.kind !== 'input' || !state.botsQueue[0]) return null
  const input = awaiting.input
  const plugin = input ? (await pluginRegistry()).get(input.type) : undefined
  return (input && plugin?.receivesFiles?.(input.options ?? {}, kind)) || null
}

/**
 * The files of one message, or of several sent at once (docs/channels.md, "Several files
 * at once"): all of them when the question takes several, the first it takes otherwise.
 * Null when the awaited question takes none of them (the message goes on as its caption,
 * and the question's retry message answers an empty one). One refused file refuses the
 * answer: the question stays asked and the contact sends again.
 */
export async function answerWithMedia(
  state: SessionState,
  media: IncomingMedia | IncomingMedia[]
): Promise<MediaAnswer | null> {
  const head = state.botsQueue[0]
  const taken: [IncomingMedia, Takes][] = []
  for (const part of Array.isArray(media) ? media : [media]) {
    const takes = await takesFile(state, part.kind)
    if (!takes) continue
    taken.push([part, takes])
    if (!takes.multiple) break
  }
  if (!head || taken.length === 0) return null
  // Receiving files is the file upload feature of the plans, as on the web.
  if (!(await planFor(null, head.workspaceId)).plan.features.fileUpload) {
    return { kind: 'refused', message: MEDIA_NOT_ACCEPTED }
  }
  const urls: string[] = []
  for (const [part, takes] of taken) {
    const limitMb = takes.sizeLimitMb ?? DEFAULT_FILE_LIMIT_MB
    if (part.size !== undefined && part.size > limitMb * 1024 * 1024) {
      return { kind: 'refused', message: tooLargeMessage(limitMb) }
    }
  }
  for (const [part, takes] of taken) {
    const limitMb = takes.sizeLimitMb ?? DEFAULT_FILE_LIMIT_MB
    let downloaded: DownloadedMedia
    try {
      downloaded = await part.download(limitMb * 1024 * 1024)
    } catch (error) {
      if (error instanceof MediaTooLarge)
        return { kind: 'refused', message: tooLargeMessage(limitMb) }
      // Failing the turn would have the platform retry a download that fails again.
      logger.warn({ err: error }, 'A channel file could not be downloaded')
      return { kind: 'refused', message: DOWNLOAD_FAILED }
    }
    const key = chatFileKey(head, takes.visibility, `${newId()}-${fileNameOf(part, downloaded)}`)
    const path = await putFile(key, downloaded.bytes, { contentType: downloaded.contentType })
    urls.push(`${appUrl}${path}`)
  }
  return { kind: 'files', urls, filesOnly: taken[0][1].filesOnly === true }
}

/** Reads a download within maxBytes (the announced length first, then what arrives). */
export function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  return readBodyWithin(response, maxBytes, () => new MediaTooLarge())
}
