import { error, json, pathParam as idParam } from '#services/openapi_helpers'

/**
 * The OpenAPI description of the public chat API and the templates' preview chat
 * (app/services/openapi.ts puts the document together): no token, callable from any site.
 */

export const bearer = [{ bearerAuth: [] }]

/**
 * Shapes of app/shared/chat/types.ts (its messages and replies are @flowcraft/sdk/chat's),
 * loosely: the viewer and embeds rely on them.
 */
const chatReply = {
  type: 'object',
  properties: {
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          type: { type: 'string', enum: ['text', 'image', 'video', 'audio', 'embed'] },
          content: { type: 'object' },
        },
      },
    },
    input: {
      type: 'object',
      description: 'The input block to answer, options resolved (items filtered, prefilledValue)',
    },
    clientSideActions: { type: 'array', items: { type: 'object' } },
    logs: { type: 'array', items: { type: 'object' }, description: 'Preview only' },
    progress: { type: 'number' },
    dynamicTheme: { type: 'object' },
    chatLimitExceededError: { type: 'string' },
    aiCreditLimitExceededError: { type: 'string' },
  },
}

/** A visitor's location, as the chat start takes and answers it. */
const geoSchema = {
  type: 'object',
  properties: {
    country: { type: 'string' },
    region: { type: 'string' },
    city: { type: 'string' },
    latitude: { type: 'number' },
    longitude: { type: 'number' },
  },
}

const startBody = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'Answers the first input at once' },
    resultId: { type: 'string', description: 'Resume a remembered visitor (rememberUser)' },
    isStreamEnabled: {
      type: 'boolean',
      description:
        'The client can stream AI answers: replies may carry the `stream` action (see streamMessage)',
    },
    isOnlyRegistering: { type: 'boolean' },
    prefilledVariables: { type: 'object', additionalProperties: true },
    textBubbleContentFormat: { type: 'string', enum: ['richText', 'markdown'] },
    language: {
      type: 'string',
      description:
        'A bot in several languages chats in this one (else a prefilled `language` variable, Accept-Language, the default)',
    },
    source: { type: 'string', enum: ['web', 'messenger', 'whatsapp', 'telegram'] },
    geo: {
      ...geoSchema,
      description: "The visitor's location, kept with the result (else a proxy's country header)",
    },
  },
}

const startedBotSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    theme: { type: 'object' },
    settings: { type: 'object' },
    publishedAt: { type: ['string', 'null'] },
  },
}

const startResponse = {
  allOf: [
    chatReply,
    {
      type: 'object',
      properties: {
        sessionId: { type: 'string' },
        resultId: { type: 'string' },
        typebot: startedBotSchema,
        bot: startedBotSchema,
        geo: {
          ...geoSchema,
          type: ['object', 'null'],
          description: "The request's geo, else the country a proxy's header gave.",
        },
      },
    },
  ],
}

/**
 * The template gallery (database/templates): list, and a preview chat that runs a template
 * in the caller's workspace without creating a bot or saving results.
 */
export function templatePaths() {
  const templateId = idParam('templateId', 'The template id, from the list')
  return {
    '/api/v1/templates': {
      get: {
        summary: 'List the bot templates',
        responses: {
          200: {
            description: 'The templates, with their category',
            content: json({
              type: 'object',
              properties: {
                templates: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'string' },
                      name: { type: 'string' },
                      description: { type: 'string' },
                      category: {
                        type: 'string',
                        enum: [
                          'marketing',
                          'product',
                          'business-finance',
                          'education-knowledge',
                          'media-arts-entertainment',
                          'other',
                        ],
                      },
                      emoji: { type: 'string' },
                      groupCount: { type: 'integer' },
                      blockCount: { type: 'integer' },
                    },
                  },
                },
              },
            }),
          },
          401: error,
        },
      },
    },
    '/api/v1/templates/{templateId}/preview/startChat': {
      post: {
        summary: 'Start a preview chat on a template (no bot created, no results saved)',
        parameters: [templateId],
        requestBody: {
          content: json({
            type: 'object',
            properties: {
              message: { type: 'string' },
              prefilledVariables: { type: 'object' },
              textBubbleContentFormat: { type: 'string', enum: ['richText', 'markdown'] },
            },
          }),
        },
        responses: {
          200: { description: 'The first messages and input', content: json(startResponse) },
          401: error,
          404: error,
        },
      },
    },
    '/api/v1/templates/{templateId}/preview/sessions/{sessionId}/continueChat': {
      post: {
        summary: 'Answer a template preview chat',
        parameters: [templateId, idParam('sessionId', 'The session id from the preview start')],
        requestBody: {
          content: json({
            type: 'object',
            properties: {
              message: { type: 'string' },
              textBubbleContentFormat: { type: 'string', enum: ['richText', 'markdown'] },
            },
          }),
        },
        responses: {
          200: { description: 'The next messages and input', content: json(chatReply) },
          401: error,
          404: error,
        },
      },
    },
  }
}

/** The public chat API: no token, callable from any site (allowed origins aside). */
export function chatPaths() {
  const start = (param: string) => ({
    post: {
      summary: 'Start a chat on a published bot',
      security: [],
      parameters: [idParam(param, 'The public id of the bot (or its id)')],
      requestBody: { content: json(startBody) },
      responses: {
        200: { description: 'The first messages and input', content: json(startResponse) },
        403: error,
        404: error,
      },
    },
  })
  return {
    '/api/v1/typebots/{publicId}/startChat': start('publicId'),
    '/api/v1/bots/{publicId}/startChat': start('publicId'),
    '/api/v1/sessions/{sessionId}/continueChat': {
      post: {
        summary: "Answer the session's input (or go on after a client-side action)",
        security: [],
        parameters: [idParam('sessionId', 'The session id from startChat')],
        requestBody: {
          content: json({
            type: 'object',
            properties: {
              message: {
                oneOf: [
                  { type: 'string' },
                  {
                    type: 'object',
                    properties: {
                      type: { type: 'string', enum: ['text', 'audio'] },
                      text: { type: 'string' },
                      url: { type: 'string' },
                      attachedFileUrls: { type: 'array', items: { type: 'string' } },
                    },
                  },
                ],
              },
              textBubbleContentFormat: { type: 'string', enum: ['richText', 'markdown'] },
            },
          }),
        },
        responses: {
          200: { description: 'The next messages and input', content: json(chatReply) },
          404: error,
        },
      },
    },
    '/api/v1/sessions/{sessionId}/timeout': {
      post: {
        summary: 'The input\'s reply timeout passed: take its "No reply" path',
        description:
          'Call it when the reply input.timeout.seconds announced has not come. Before the ' +
          'deadline the server stored, or once the question is no longer awaited, nothing ' +
          'changes and the answer is 409.',
        security: [],
        parameters: [idParam('sessionId', 'The session id from startChat')],
        requestBody: {
          content: json({
            type: 'object',
            properties: {
              blockId: { type: 'string', description: 'The input id the timer was set for' },
              textBubbleContentFormat: { type: 'string', enum: ['richText', 'markdown'] },
            },
          }),
        },
        responses: {
          200: {
            description: 'The "No reply" path\'s messages and input',
            content: json(chatReply),
          },
          404: error,
          409: error,
        },
      },
    },
    '/api/v1/typebots/{botId}/preview/startChat': {
      post: {
        summary: 'Start a preview of the draft (no results saved)',
        parameters: [idParam('botId', 'Bot id')],
        requestBody: {
          content: json({
            allOf: [
              startBody,
              {
                type: 'object',
                properties: {
                  startFrom: {
                    type: 'object',
                    properties: {
                      type: { type: 'string', enum: ['group', 'event'] },
                      groupId: { type: 'string' },
                      eventId: { type: 'string' },
                    },
                  },
                },
              },
            ],
          }),
        },
        responses: { 200: { description: 'Started', content: json(startResponse) }, 404: error },
      },
    },
    '/api/v1/sessions/{sessionId}/files': {
      post: {
        summary: 'Upload a file for the file input the session waits on',
        security: [],
        parameters: [idParam('sessionId', 'The session id from startChat')],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', 'blockId'],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  blockId: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          200: {
            description: 'The stored file',
            content: json({ type: 'object', properties: { url: { type: 'string' } } }),
          },
          400: error,
          413: error,
        },
      },
    },
    '/api/v1/typebots/{botId}/blocks/{blockId}/results/{resultId}/executeWebhook': {
      post: {
        summary: 'Call the URL of a waiting webhook block: its body resumes the chat',
        security: [],
        parameters: [
          idParam('botId', 'Bot id'),
          idParam('blockId', 'The webhook block id'),
          idParam('resultId', 'The result of the waiting chat'),
        ],
        requestBody: { content: json({ type: 'object', additionalProperties: true }) },
        responses: { 200: { description: 'Received' }, 404: error },
      },
    },
  }
}
