/**
 * The streamed answer of the chat API, documented apart from the
 * rest of the chat API in openapi.ts.
 */
import { error, pathParam, withText } from '#services/openapi_helpers'

const streamError = withText(
  {
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
        },
      },
    },
  },
  "The provider's error, before any text was sent"
)

export function chatStreamPaths() {
  return {
    '/api/v2/sessions/{sessionId}/streamMessage': {
      post: {
        summary: 'Stream the answer of the block the session is paused on',
        description: [
          'Called when a reply carries the `stream` client-side action (the client asked for',
          '`isStreamEnabled` on startChat and an AI block is followed by a text bubble showing',
          'its answer). The answer comes as plain text, chunk by chunk as the provider sends',
          'it. Then call continueChat with the full text as the message: it fills the',
          "block's variable and the chat goes on as it would without streaming. After an",
          'error, call continueChat without a message.',
        ].join(' '),
        security: [],
        parameters: [pathParam('sessionId', 'The session id from startChat')],
        responses: {
          200: withText(
            { content: { 'text/plain': { schema: { type: 'string' } } } },
            'The answer, streamed (chunked transfer encoding)'
          ),
          400: withText(streamError, "'model not found', or the provider's own 400"),
          401: withText(streamError, "'API key missing'"),
          402: withText(streamError, "The bot owner's AI credits are used up"),
          404: error,
          409: withText(
            { content: { 'application/json': { schema: { type: 'object' } } } },
            'The session is not paused on a streaming block'
          ),
          500: withText(streamError, "'An error occured while generating the stream'"),
        },
      },
    },
  }
}
