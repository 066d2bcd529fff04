import type User from '#models/user'
import { type CopilotDocumentType, type CopilotStateDto } from '#shared/copilot'
import { CopilotTarget, conversationQuery, addMessage, noteManualEdit, stateOf } from './copilot.js'

/** The greeting and the suggestions of an empty chat (our wording): an empty chat opens with a greeting, not a blank panel. */
const GREETINGS: Record<CopilotDocumentType, { text: string; suggestions: string[] }> = {
  workflow: {
    text: "Hi! I'm your copilot. Tell me what this workflow should do and I'll add, connect and configure its nodes. Each change I make is saved as a version you can preview or undo.",
    suggestions: [
      'Start this workflow from a webhook',
      'Which nodes can send a message?',
      'Add an HTTP request after the trigger',
    ],
  },
  bot: {
    text: "Hi! I'm your copilot. Tell me what this bot should do and I'll add, connect and configure its groups and blocks. Each change I make is saved as a version you can preview or undo.",
    suggestions: [
      'Greet visitors and ask for their e-mail',
      'Which blocks can collect an answer?',
      'Add a choice with Yes and No after the start',
    ],
  },
}

export class ShowCopilotConversation {
  /** The conversation, greeted when empty and noted when the builder edited since. */
  async handle(user: User, target: CopilotTarget): Promise<CopilotStateDto> {
    let messages = await conversationQuery(user, target)
    if (messages.length === 0) {
      const greeting = GREETINGS[target.type]
      messages = [
        await addMessage(user, target, { content: greeting.text }),
        await addMessage(user, target, {
          type: 'SUGGESTION',
          content: '',
          usage: { suggestions: greeting.suggestions },
        }),
      ]
    } else {
      messages = await noteManualEdit(user, target, messages)
    }
    return stateOf(user, target, messages)
  }
}
