import { definePlugin, field } from '#sdk/plugin'

export const CHAT_NODE_DEFAULT_BASE_URL = 'https://api.chatnode.ai'

/**
 * chat-node: an AI chatbot service trained on the builder's own content. The block sends
 * the visitor's message to one of their chat-node bots and keeps the thread id, so the
 * next message continues the same conversation.
 */
export default definePlugin({
  id: 'chat-node',
  name: 'ChatNode',
  fullName: 'ChatNode AI chatbot',
  tags: ['ai', 'chatbot', 'assistant'],
  description: 'Ask a ChatNode bot trained on your content',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://www.chatnode.ai',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      secret: true,
      required: true,
      helperText: 'Create one in your ChatNode account settings.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: CHAT_NODE_DEFAULT_BASE_URL,
      helperText: 'Change it only to reach another server speaking the same API.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'chat-node',
      required: true,
    }),
    botId: field.string({ label: 'Bot ID', required: true, allowVariables: true }),
    threadId: field.string({
      label: 'Thread ID',
      allowVariables: true,
      helperText:
        'The variable keeping the conversation. Empty starts a new thread: map "Thread ID" below into the same variable.',
    }),
    message: field.string({
      label: 'Message',
      multiline: true,
      allowVariables: true,
      required: true,
    }),
    responseMapping: field.responseMapping({
      label: 'Save the response',
      from: ['Message', 'Thread ID'],
    }),
  },
})
