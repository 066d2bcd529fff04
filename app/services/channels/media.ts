import logger from '@adonisjs/core/services/logger'
import { appUrl } from '#config/app'
import { DEFAULT_FILE_LIMIT_MB, chatFileKey } from '#actions/chat/upload_chat_file'
import { newId } from '#services/ids'
import { putFile, safeFileName } from '#services/storage'
import { readBodyWithin } from '#services/limited_body'
import { runtimePlanOf } from '#services/capabilities'
import { pluginRegistry } from '#services/plugin_registry'
import type { SessionState } from '#engine/bot/state'

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

/**
 * Null when the awaited question takes no file (the message goes on as its caption, and
 * the question's retry message answers an empty one).
 */
export async function answerWithMedia(
  state: SessionState,
  media: IncomingMedia
): Promise<MediaAnswer | null> {
  const awaiting = state.awaiting
  const head = state.botsQueue[0]
  if (!awaiting || awaiting.kind !== 'input' || !head) return null
  const input = awaiting.input
  const plugin = input ? (await pluginRegistry()).get(input.type) : undefined
  const takes = input && plugin?.receivesFiles?.(input.options ?? {}, media.kind)
  if (!takes) return null
  // Receiving files is the file upload feature of the plans, as on the web.
  if (!(await runtimePlanOf(head.workspaceId)).features.fileUpload) {
    return { kind: 'refused', message: MEDIA_NOT_ACCEPTED }
  }
  const limitMb = takes.sizeLimitMb ?? DEFAULT_FILE_LIMIT_MB
  const maxBytes = limitMb * 1024 * 1024
  if (media.size !== undefined && media.size > maxBytes) {
    return { kind: 'refused', message: tooLargeMessage(limitMb) }
  }
  let downloaded: DownloadedMedia
  try {
    downloaded = await media.download(maxBytes)
  } catch (error) {
    if (error instanceof MediaTooLarge)
      return { kind: 'refused', message: tooLargeMessage(limitMb) }
    // Failing the turn would have the platform retry a download that fails again.
    logger.warn({ err: error }, 'A channel file could not be downloaded')
    return { kind: 'refused', message: DOWNLOAD_FAILED }
  }
  const key = chatFileKey(head, takes.visibility, `${newId()}-${fileNameOf(media, downloaded)}`)
  const path = await putFile(key, downloaded.bytes, { contentType: downloaded.contentType })
  return { kind: 'files', urls: [`${appUrl}${path}`], filesOnly: takes.filesOnly === true }
}

/** Reads a download within maxBytes (the announced length first, then what arrives). */
export function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  return readBodyWithin(response, maxBytes, () => new MediaTooLarge())
}
