import type { HttpContext } from '@adonisjs/core/http'
import { UploadChatFile } from '#actions/chat/upload_chat_file'

/** Files a visitor sends to a file input (multipart: file, blockId). */
export default class ChatFilesController {
  async store(ctx: HttpContext) {
    const file = ctx.request.file('file')
    const blockId = String(ctx.request.input('blockId') ?? '')
    return new UploadChatFile().handle(ctx.params.sessionId, blockId, file)
  }
}
