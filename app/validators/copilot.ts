import vine from '@vinejs/vine'
import { COPILOT_MESSAGE_MAX_LENGTH } from '#shared/copilot'

/** POST a copilot message; white space alone is refused. */
export const copilotMessageValidator = vine.compile(
  vine.object({
    content: vine.string().trim().minLength(1).maxLength(COPILOT_MESSAGE_MAX_LENGTH),
    credentialsId: vine.string().trim().maxLength(64).nullable().optional(),
  })
)
