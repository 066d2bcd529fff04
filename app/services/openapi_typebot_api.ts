/**
 * The OpenAPI description of the Typebot-compatible management routes (merged into
 * openapi.ts; docs/migrating-from-typebot.md). Texts go through small helpers: they
 * describe the API, they are not messages shown to people.
 */
import { error, pathParam, queryParam, reply, withText } from '#services/openapi_helpers'

const TAG = ['Typebot-compatible API']
const str = { type: 'string' }
const nullableStr = { type: ['string', 'null'] }
const success = reply('Done', {
  type: 'object',
  properties: { message: { type: 'string', const: 'success' } },
})
const typebotId = pathParam('typebotId', 'Bot id')
const workspaceQuery = withText(
  { name: 'workspaceId', in: 'query', required: true, schema: str },
  'Workspace id'
)
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties })
const body = (properties: Record<string, unknown>, required: string[] = []) => ({
  required: true,
  content: { 'application/json': { schema: { type: 'object', properties, required } } },
})

const typebot = withText(
  object({
    version: str,
    id: str,
    name: str,
    events: { type: 'array', items: { type: 'object' } },
    groups: { type: 'array', items: { type: 'object' } },
    edges: { type: 'array', items: { type: 'object' } },
    variables: { type: 'array', items: { type: 'object' } },
    theme: { type: 'object' },
    settings: { type: 'object' },
    selectedThemeTemplateId: nullableStr,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    icon: nullableStr,
    folderId: nullableStr,
    publicId: nullableStr,
    customDomain: nullableStr,
    workspaceId: str,
    resultsTablePreferences: { type: ['object', 'null'] },
    isArchived: { type: 'boolean' },
    isClosed: { type: 'boolean' },
    whatsAppCredentialsId: nullableStr,
    riskLevel: nullableStr,
  }),
  'A bot in the export format (version "6")'
)

const result = object({
  id: str,
  createdAt: { type: 'string', format: 'date-time' },
  typebotId: str,
  variables: { type: 'array', items: object({ id: str, name: str, value: {} }) },
  isCompleted: { type: 'boolean' },
  hasStarted: { type: 'boolean' },
  isArchived: { type: 'boolean' },
  lastChatSessionId: nullableStr,
  answers: {
    type: 'array',
    items: object({
      blockId: str,
      content: str,
      attachedFileUrls: { type: 'array', items: str },
    }),
  },
})

const folder = object({
  id: str,
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  name: str,
  parentFolderId: nullableStr,
  workspaceId: str,
})

const workspace = object({
  id: str,
  name: str,
  icon: nullableStr,
  plan: str,
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
})

const timeFilter = queryParam(
  'timeFilter',
  {
    type: 'string',
    enum: ['today', 'last7Days', 'last30Days', 'monthToDate', 'lastMonth', 'yearToDate', 'allTime'],
    default: 'last7Days',
  },
  'Creation period of the results'
)

const typebotReply = reply('The bot', object({ typebot }))
const createBody = body(
  { workspaceId: str, typebot: withText({ type: 'object' }, 'The bot (or some of its fields)') },
  ['workspaceId']
)

/** POST /api/v1/workspaces (the GET of that path is our own list, same shape). */
export const createWorkspaceOperation = {
  tags: TAG,
  summary: 'Create a workspace ({name, icon}); you are its admin',
  requestBody: body({ name: str, icon: str }),
  responses: { 200: reply('The workspace', object({ workspace })), 401: error, 422: error },
}

export function typebotApiPaths() {
  return {
    '/api/v1/typebots': {
      get: {
        tags: TAG,
        summary: 'List the bots of a workspace (not archived)',
        parameters: [workspaceQuery, queryParam('folderId', str, 'Only the bots of this folder')],
        responses: {
          200: reply(
            'The bots',
            object({
              typebots: {
                type: 'array',
                items: object({
                  name: str,
                  icon: nullableStr,
                  id: str,
                  accessRight: { type: 'string', enum: ['read', 'write'] },
                  publishedTypebotId: nullableStr,
                }),
              },
            })
          ),
          404: error,
          422: error,
        },
      },
      post: {
        tags: TAG,
        summary: 'Create a bot from the given fields (new ids; name and folderId are read)',
        requestBody: createBody,
        responses: { 200: typebotReply, 403: error, 404: error, 422: error },
      },
    },
    '/api/v1/typebots/import': {
      post: {
        tags: TAG,
        summary: 'Import an exported bot (versions 3 to 6.x); its id and publicId kept when free',
        requestBody: createBody,
        responses: { 200: typebotReply, 403: error, 404: error, 422: error },
      },
    },
    '/api/v1/typebots/{typebotId}': {
      get: {
        tags: TAG,
        summary: 'Get a bot (the draft) and your access to it',
        parameters: [typebotId],
        responses: {
          200: reply(
            'The bot',
            object({ typebot, currentUserMode: { type: 'string', enum: ['read', 'write'] } })
          ),
          404: error,
        },
      },
      patch: {
        tags: TAG,
        summary: 'Update a bot: the given fields of {typebot} replace the draft ones',
        parameters: [typebotId],
        requestBody: body({ typebot: { type: 'object' } }, ['typebot']),
        responses: { 200: typebotReply, 403: error, 404: error, 409: error, 422: error },
      },
      delete: {
        tags: TAG,
        summary: 'Delete a bot',
        parameters: [typebotId],
        responses: { 200: success, 403: error, 404: error },
      },
    },
    '/api/v1/typebots/{typebotId}/publishedTypebot': {
      get: {
        tags: TAG,
        summary: 'The published copy visitors chat with',
        parameters: [typebotId],
        responses: {
          200: reply('The published copy', object({ publishedTypebot: { type: 'object' } })),
          404: error,
        },
      },
    },
    '/api/v1/typebots/{typebotId}/publish': {
      post: {
        tags: TAG,
        summary: 'Publish the draft',
        parameters: [typebotId],
        responses: { 200: success, 403: error, 404: error, 422: error },
      },
    },
    '/api/v1/typebots/{typebotId}/unpublish': {
      post: {
        tags: TAG,
        summary: 'Unpublish',
        parameters: [typebotId],
        responses: { 200: success, 403: error, 404: error },
      },
    },
    '/api/v1/typebots/{typebotId}/results': {
      get: {
        tags: TAG,
        summary: 'Results, newest first (visitors who answered, not archived)',
        parameters: [
          typebotId,
          queryParam(
            'limit',
            { type: 'integer', minimum: 1, maximum: 500, default: 50 },
            'Page size (pages hold 200 results at most)'
          ),
          queryParam('cursor', str, 'nextCursor of the previous page'),
          timeFilter,
          queryParam('timeZone', str, 'IANA time zone of the period (UTC by default)'),
        ],
        responses: {
          200: reply(
            'A page of results',
            object({
              results: { type: 'array', items: result },
              nextCursor: withText(nullableStr, 'Null on the last page'),
            })
          ),
          404: error,
          422: error,
        },
      },
      delete: {
        tags: TAG,
        summary: 'Delete results: resultIds (comma separated), or every result without it',
        parameters: [typebotId, queryParam('resultIds', str, 'Comma separated ids')],
        responses: { 200: success, 403: error, 404: error },
      },
    },
    '/api/v1/typebots/{typebotId}/results/{resultId}': {
      get: {
        tags: TAG,
        summary: 'One result with its answers',
        parameters: [typebotId, pathParam('resultId', 'Result id')],
        responses: { 200: reply('The result', object({ result })), 404: error },
      },
    },
    '/api/v1/typebots/{typebotId}/results/{resultId}/logs': {
      get: {
        tags: TAG,
        summary: 'The logs of a result, oldest first',
        parameters: [typebotId, pathParam('resultId', 'Result id')],
        responses: {
          200: reply(
            'The logs',
            object({
              logs: {
                type: 'array',
                items: object({
                  id: str,
                  createdAt: { type: 'string', format: 'date-time' },
                  resultId: str,
                  status: str,
                  description: str,
                  details: nullableStr,
                }),
              },
            })
          ),
          404: error,
        },
      },
    },
    '/api/v1/typebots/{typebotId}/analytics/stats': {
      get: {
        tags: TAG,
        summary: 'Views, starts and completions (results not archived)',
        parameters: [typebotId],
        responses: {
          200: reply(
            'The counts',
            object({
              stats: object({
                totalViews: { type: 'integer' },
                totalStarts: { type: 'integer' },
                totalCompleted: { type: 'integer' },
              }),
            })
          ),
          404: error,
        },
      },
    },
    '/api/v1/workspaces/{workspaceId}': {
      get: {
        tags: TAG,
        summary: 'Get a workspace',
        parameters: [pathParam('workspaceId', 'Workspace id')],
        responses: { 200: reply('The workspace', object({ workspace })), 404: error },
      },
      patch: {
        tags: TAG,
        summary: 'Rename a workspace or change its icon (admins)',
        parameters: [pathParam('workspaceId', 'Workspace id')],
        requestBody: body({ name: str, icon: nullableStr }),
        responses: {
          200: reply('The workspace', object({ workspace })),
          403: error,
          404: error,
          422: error,
        },
      },
      delete: {
        tags: TAG,
        summary: 'Delete a workspace and its bots (admins)',
        parameters: [pathParam('workspaceId', 'Workspace id')],
        responses: { 200: success, 403: error, 404: error },
      },
    },
    '/api/v1/workspaces/{workspaceId}/members': {
      get: {
        tags: TAG,
        summary: 'Members of a workspace',
        parameters: [pathParam('workspaceId', 'Workspace id')],
        responses: {
          200: reply(
            'The members',
            object({
              members: {
                type: 'array',
                items: object({
                  workspaceId: str,
                  user: object({ name: nullableStr, email: str, image: nullableStr }),
                  role: { type: 'string', enum: ['ADMIN', 'MEMBER', 'GUEST'] },
                }),
              },
            })
          ),
          404: error,
        },
      },
    },
    '/api/v1/folders': {
      get: {
        tags: TAG,
        summary: 'Folders of a workspace, one level (the top one without parentFolderId)',
        parameters: [workspaceQuery, queryParam('parentFolderId', str, 'Parent folder id')],
        responses: {
          200: reply('The folders', object({ folders: { type: 'array', items: folder } })),
          404: error,
          422: error,
        },
      },
      post: {
        tags: TAG,
        summary: 'Create a folder (plans with folders)',
        requestBody: body({ workspaceId: str, folderName: str, parentFolderId: str }, [
          'workspaceId',
        ]),
        responses: {
          200: reply('The folder', object({ folder })),
          403: error,
          404: error,
          422: error,
        },
      },
    },
    '/api/v1/folders/{folderId}': {
      get: {
        tags: TAG,
        summary: 'Get a folder',
        parameters: [pathParam('folderId', 'Folder id'), workspaceQuery],
        responses: { 200: reply('The folder', object({ folder })), 404: error },
      },
      patch: {
        tags: TAG,
        summary: 'Rename or move a folder',
        parameters: [pathParam('folderId', 'Folder id')],
        requestBody: body(
          { workspaceId: str, folder: object({ name: str, parentFolderId: nullableStr }) },
          ['workspaceId', 'folder']
        ),
        responses: {
          200: reply('The folder', object({ folder })),
          400: error,
          403: error,
          404: error,
        },
      },
      delete: {
        tags: TAG,
        summary: 'Delete a folder (its bots and sub-folders move up to the top level)',
        parameters: [pathParam('folderId', 'Folder id'), workspaceQuery],
        responses: { 200: reply('The deleted folder', object({ folder })), 403: error, 404: error },
      },
    },
  }
}
