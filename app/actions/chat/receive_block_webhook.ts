import AppError from '#exceptions/app_error'
import { readSession, updateSession } from '#services/chat/chat_store'
import db from '@adonisjs/lucid/services/db'

/**
 * A call to a waiting webhook block's URL: the body is kept in the session of the
 * result, and the next continueChat resumes the flow with it.
 */
export class ReceiveBlockWebhook {
  async handle(botId: string, blockId: string, resultId: string, payload: unknown) {
    const result = await db
      .from('results')
      .where({ id: resultId, bot_id: botId })
      .select('last_chat_session_id')
      .first()
    const sessionId = result?.last_chat_session_id
    const session = sessionId ? await readSession(sessionId) : null
    const awaiting = session?.state.awaiting
    if (!session || !awaiting?.awaitsWebhook || awaiting.blockId !== blockId) {
      throw new AppError('No chat is waiting for this webhook', { status: 404 })
    }
    session.state.webhookPayload = payload ?? {}
    await updateSession(session.id, session.state)
    return { message: 'Webhook received' }
  }
}
