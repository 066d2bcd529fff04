/**
 * The OpenAPI description of the results routes (merged into openapi.ts). Texts go through
 * small helpers: they describe the API, they are not messages shown to people.
 */
import { error, pathParam, queryParam, reply, withText } from '#services/openapi_helpers'

const answer = {
  type: 'object',
  properties: {
    blockId: { type: 'string' },
    groupId: { type: 'string' },
    variableId: { type: ['string', 'null'] },
    content: { type: 'string' },
    attachedFileUrls: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' },
  },
}

const result = {
  type: 'object',
  properties: {
    id: withText({ type: 'string' }, 'Sorts by creation time'),
    createdAt: { type: 'string', format: 'date-time' },
    hasStarted: withText({ type: 'boolean' }, 'The visitor answered at least once'),
    isCompleted: { type: 'boolean' },
    language: withText(
      { type: 'string', nullable: true },
      'The language the chat ran in, for a bot in several languages'
    ),
    variables: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, value: {} },
      },
    },
    answers: { type: 'array', items: answer },
  },
}

const log = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    status: { type: 'string', enum: ['success', 'info', 'error'] },
    description: { type: 'string' },
    details: {},
    createdAt: { type: 'string', format: 'date-time' },
  },
}

export function resultsPaths() {
  return {
    '/api/v1/bots/{id}/results': {
      get: {
        summary: 'Results of a bot, newest first (visitors who answered, not archived)',
        parameters: [
          pathParam('id', 'Bot id'),
          queryParam(
            'limit',
            { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            'Page size'
          ),
          queryParam('cursor', { type: 'string' }, 'nextCursor of the previous page'),
          queryParam('search', { type: 'string' }, 'Text in the answers or variables'),
          queryParam(
            'includeAll',
            { type: 'boolean' },
            'Also views without answers and archived results'
          ),
        ],
        responses: {
          200: reply('A page of results', {
            type: 'object',
            properties: {
              results: { type: 'array', items: result },
              nextCursor: withText({ type: ['string', 'null'] }, 'Null on the last page'),
            },
          }),
          404: error,
          422: error,
        },
      },
    },
    '/api/v1/bots/{id}/results/{resultId}/logs': {
      get: {
        summary: 'What happened while the bot ran for a result (oldest first)',
        parameters: [pathParam('id', 'Bot id'), pathParam('resultId', 'Result id')],
        responses: {
          200: reply('The logs', {
            type: 'object',
            properties: { logs: { type: 'array', items: log } },
          }),
          404: error,
        },
      },
    },
  }
}
