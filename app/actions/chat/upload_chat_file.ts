import type { MultipartFile } from '@adonisjs/core/bodyparser'
import AppError from '#exceptions/app_error'
import { appUrl } from '#config/app'
import { newId } from '#services/ids'
import { putFile, safeFileName } from '#services/storage'
import { chatFileKey, DEFAULT_FILE_LIMIT_MB } from '#services/chat/chat_files'
import { readSession } from '#services/chat/chat_store'

/**
 * Stores a file a visitor uploads for the input the session waits on, and returns its
 * URL for the answer. Only the awaited block accepts files, within its size limit.
 * Files live under an unguessable path per result. A block whose visibility is Private
 * keeps them private: the URL then works only for members of the bot's workspace or with
 * a signed link (docs/security.md, "Storage"); Auto and Public files are public.
 */
export class UploadChatFile {
  async handle(sessionId: string, blockId: string, file: MultipartFile | null) {
    const session = await readSession(sessionId)
    if (!session) throw AppError.notFound('Session not found')
    const awaiting = session.state.awaiting
    if (!awaiting || awaiting.kind !== 'input' || awaiting.blockId !== blockId) {
      throw new AppError('This chat is not waiting for a file', { status: 400, field: 'blockId' })
    }
    if (!file) throw new AppError('No file received', { status: 400, field: 'file' })
    const options = awaiting.input?.options ?? {}
    const limitMb =
      Number(options.sizeLimit) > 0 ? Number(options.sizeLimit) : DEFAULT_FILE_LIMIT_MB
    if (file.size > limitMb * 1024 * 1024) {
      throw new AppError('File too large', {
        status: 413,
        description: `The limit is ${limitMb} MB.`,
        field: 'file',
      })
    }
    if (!file.tmpPath) throw new AppError('No file received', { status: 400, field: 'file' })
    const head = session.state.botsQueue[0]
    if (!head) throw AppError.notFound('Session not found')
    const key = chatFileKey(head, options.visibility, `${newId()}-${safeFileName(file.clientName)}`)
    const path = await putFile(key, { fromPath: file.tmpPath })
    return { url: `${appUrl}${path}` }
  }
}
