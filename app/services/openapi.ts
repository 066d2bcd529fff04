/**
 * The OpenAPI 3.1 description of the public REST API, served at /api/docs (JSON at
 * /api/docs/openapi.json). Kept by hand next to the routes; a functional test checks that
 * every /api/v1 route is documented.
 */
import { error, pathParam as idParam } from '#services/openapi_helpers'
import { chatStreamPaths } from '#services/openapi_chat_stream'
import { resultsPaths } from '#services/openapi_results'
import { workflowRunPaths } from '#services/openapi_workflow_runs'
import { workflowPaths } from '#services/openapi_workflows'
import { createWorkspaceOperation, typebotApiPaths } from '#services/openapi_typebot_api'
import { bearer, templatePaths, chatPaths } from '#services/openapi_chat'

export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flowcraft API',
      version: '1',
      description:
        'Control workspaces, credentials and bots with an API token (Settings → API tokens), sent as `Authorization: Bearer <token>`.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      responses: {
        Error: {
          description: 'An error with a message for people',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  message: { type: 'string' },
                  description: { type: 'string' },
                  field: { type: 'string' },
                  errors: { type: 'array', items: { type: 'object' } },
                },
              },
            },
          },
        },
      },
      schemas: {
        Workspace: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            icon: { type: ['string', 'null'] },
            plan: {
              type: 'string',
              enum: ['FREE', 'BASIC', 'STANDARD', 'ENTERPRIZE', 'UNLIMITED'],
            },
            role: { type: 'string', enum: ['ADMIN', 'MEMBER', 'GUEST'] },
          },
        },
        Credential: {
          type: 'object',
          description: 'Never contains the credential data.',
          properties: {
            id: { type: 'string' },
            type: { type: 'string', description: 'The plugin id, e.g. openai' },
            name: { type: 'string' },
            createdAt: { type: 'string', format: 'date-time' },
          },
        },
        BotSummary: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            folderId: { type: ['string', 'null'] },
            publicId: { type: ['string', 'null'] },
            isPublished: { type: 'boolean' },
            isArchived: { type: 'boolean' },
            isClosed: { type: 'boolean' },
            updatedAt: { type: 'string', format: 'date-time' },
          },
        },
        Bot: {
          type: 'object',
          description:
            'The open v6 bot format: groups of blocks, events, edges, variables, theme and settings.',
          properties: {
            version: { type: 'string', const: '6' },
            id: { type: 'string' },
            name: { type: 'string' },
            publicId: { type: ['string', 'null'] },
            groups: { type: 'array', items: { type: 'object' } },
            events: { type: 'array', items: { type: 'object' } },
            edges: { type: 'array', items: { type: 'object' } },
            variables: { type: 'array', items: { type: 'object' } },
            theme: { type: 'object' },
            settings: { type: 'object' },
          },
        },
        BotResponse: {
          type: 'object',
          properties: {
            bot: { $ref: '#/components/schemas/Bot' },
            currentUserMode: { type: 'string', enum: ['write', 'read', 'guest'] },
            publishedAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
      },
    },
    security: bearer,
    paths: {
      '/api/v1/me': {
        get: {
          summary: 'The user the token belongs to',
          responses: { 200: { description: 'The user' }, 401: error },
        },
      },
      '/api/v1/workspaces': {
        post: createWorkspaceOperation,
        get: {
          summary: 'Workspaces of the user',
          responses: {
            200: {
              description: 'Workspaces',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      workspaces: {
                        type: 'array',
                        items: { $ref: '#/components/schemas/Workspace' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      '/api/v1/credentials': {
        post: {
          summary: 'Create credentials (encrypted at rest; the answer never contains the data)',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['workspaceId', 'type', 'name', 'data'],
                  properties: {
                    workspaceId: { type: 'string' },
                    type: { type: 'string' },
                    name: { type: 'string' },
                    data: { type: 'object' },
                  },
                },
              },
            },
          },
          responses: {
            201: {
              description: 'Created',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Credential' } },
              },
            },
            422: error,
          },
        },
      },
      '/api/v1/workspaces/{id}/credentials': {
        get: {
          summary: 'Credentials of a workspace visible to the user',
          parameters: [idParam('id', 'Workspace id')],
          responses: { 200: { description: 'Credentials' }, 404: error },
        },
      },
      '/api/v1/credentials/{id}': {
        delete: {
          summary: 'Delete credentials',
          parameters: [idParam('id', 'Credentials id')],
          responses: { 204: { description: 'Deleted' }, 404: error },
        },
      },
      '/api/v1/plugins': {
        get: {
          summary: 'Blocks available to a workspace (locked ones need another plan)',
          parameters: [
            { name: 'workspaceId', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'surface', in: 'query', schema: { type: 'string', enum: ['bot', 'workflow'] } },
          ],
          responses: { 200: { description: 'Plugins with their form descriptions' } },
        },
      },
      '/api/v1/plugins/validate': {
        post: {
          summary: "Validate a block's options",
          responses: { 200: { description: 'Valid' }, 422: error },
        },
      },
      '/api/v1/bots': {
        post: {
          summary: 'Import a bot (versions 3 to 6.x; keeps its id and publicId when they are free)',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['workspaceId', 'bot'],
                  properties: { workspaceId: { type: 'string' }, bot: { type: 'object' } },
                },
              },
            },
          },
          responses: {
            201: {
              description: 'Created',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/BotResponse' } },
              },
            },
            403: error,
            422: error,
          },
        },
      },
      '/api/v1/workspaces/{id}/bots': {
        get: {
          summary: 'Bots of a workspace',
          parameters: [
            idParam('id', 'Workspace id'),
            { name: 'folderId', in: 'query', schema: { type: 'string' } },
            { name: 'archived', in: 'query', schema: { type: 'boolean' } },
          ],
          responses: {
            200: {
              description: 'Bots',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      bots: { type: 'array', items: { $ref: '#/components/schemas/BotSummary' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
      '/api/v1/bots/{id}': {
        get: {
          summary: 'A bot with the user mode',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: 'The bot' }, 404: error },
        },
        patch: {
          summary:
            "Update a bot (content is checked against the bot format). With `revision` (the bot's revision when read) a content change is refused with 409 when the draft was saved elsewhere since; without it the last writer wins",
          parameters: [idParam('id', 'Bot id')],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Bot' } } },
          },
          responses: { 200: { description: 'The bot' }, 403: error, 409: error, 422: error },
        },
        delete: {
          summary: 'Delete a bot',
          parameters: [idParam('id', 'Bot id')],
          responses: { 204: { description: 'Deleted' } },
        },
      },
      '/api/v1/bots/{id}/published': {
        get: {
          summary:
            'The published version (groups, events, edges, variables, theme, settings, version, publishedAt), or {published: null} before the first publish',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: '{published}' }, 404: error },
        },
      },
      '/api/v1/bots/{id}/publish': {
        post: {
          summary: 'Publish the draft',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: 'Published' }, 403: error },
        },
      },
      '/api/v1/bots/{id}/restore-published': {
        post: {
          summary:
            'Copy the published version over the draft (engine 6), keeping the draft metadata',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: 'The restored bot' }, 400: error, 404: error },
        },
      },
      '/api/v1/bots/{id}/custom-domain': {
        get: {
          summary:
            "The bot's custom domain: {domain, status: pending or verified, record: {type, name, value}}, the DNS TXT record that proves control (docs/custom_domains.md)",
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: '{domain, status, verifiedAt, record}' }, 404: error },
        },
      },
      '/api/v1/bots/{id}/custom-domain/verify': {
        post: {
          summary:
            'Check the TXT record of the pending custom domain now; once found, the bot is served at the domain',
          parameters: [idParam('id', 'Bot id')],
          responses: {
            200: { description: '{domain, status, verifiedAt, record}' },
            404: error,
            409: error,
            422: error,
          },
        },
      },
      '/api/v1/bots/{id}/versions': {
        get: {
          summary:
            'The history of a bot, newest first: id, versionName, kind (draft, publish, restore, named), content, author, createdAt',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: '{versions}' }, 404: error },
        },
        post: {
          summary: 'Keep the draft as it is now as a named version ({name})',
          parameters: [idParam('id', 'Bot id')],
          responses: { 201: { description: '{versions}' }, 404: error, 422: error },
        },
      },
      '/api/v1/bots/{id}/versions/{versionId}/restore': {
        post: {
          summary:
            "Copy a version's content over the draft (the published bot keeps serving), as a new version",
          parameters: [idParam('id', 'Bot id'), idParam('versionId', 'Version id')],
          responses: { 200: { description: 'The restored bot' }, 404: error },
        },
      },
      '/api/v1/bots/{id}/channels': {
        get: {
          summary:
            "The bot's messaging channels (docs/channels.md): for telegram and whatsapp, {channel, connected, webhookUrl, lastError}, and for WhatsApp the callbackUrl, phoneNumberId, hasAppSecret and (editors only) verifyToken. Never a secret",
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: '{channels}' }, 404: error },
        },
      },
      '/api/v1/bots/{id}/channels/{channel}': {
        put: {
          summary:
            'Connect the bot to telegram ({botToken, baseUrl?}: checked with getMe; the webhook is set when the bot is published with Telegram enabled) or whatsapp ({systemUserAccessToken, phoneNumberId, appSecret, verifyToken?, baseUrl?}; plans with the whatsApp feature; the app secret is required, calls not signed with it are refused). An empty secret keeps the saved one',
          parameters: [
            idParam('id', 'Bot id'),
            {
              name: 'channel',
              in: 'path',
              required: true,
              schema: { enum: ['telegram', 'whatsapp'] },
            },
          ],
          responses: { 200: { description: 'The channel' }, 403: error, 404: error, 422: error },
        },
        delete: {
          summary: "Disconnect the channel (Telegram's webhook is deleted) and forget its secrets",
          parameters: [
            idParam('id', 'Bot id'),
            {
              name: 'channel',
              in: 'path',
              required: true,
              schema: { enum: ['telegram', 'whatsapp'] },
            },
          ],
          responses: { 204: { description: 'Disconnected' }, 404: error, 502: error },
        },
      },
      '/api/v1/channels/telegram/{id}': {
        post: {
          summary:
            "Telegram's updates for a bot's channel, with the secret token of setWebhook in X-Telegram-Bot-Api-Secret-Token (401 otherwise). Messages and button presses take a chat turn whose messages are sent back through the Bot API; a retried update_id takes none",
          security: [],
          parameters: [idParam('id', 'Channel id')],
          responses: { 200: { description: '{ok}' }, 401: error, 404: error },
        },
      },
      '/api/v1/channels/whatsapp/{id}': {
        get: {
          summary:
            "Meta's webhook verification: answers hub.challenge when hub.mode is subscribe and hub.verify_token is the channel's verify token (403 otherwise)",
          security: [],
          parameters: [idParam('id', 'Channel id')],
          responses: { 200: { description: 'The challenge, as text' }, 403: error },
        },
        post: {
          summary:
            "WhatsApp Cloud API notifications for a bot's channel, signed in X-Hub-Signature-256 with the app secret when one is set (401 otherwise). Each message takes a chat turn whose messages are sent back with the Cloud API; a retried message id takes none",
          security: [],
          parameters: [idParam('id', 'Channel id')],
          responses: { 200: { description: '{ok}' }, 401: error, 404: error },
        },
      },
      '/api/v1/bots/{id}/unpublish': {
        post: {
          summary: 'Unpublish',
          parameters: [idParam('id', 'Bot id')],
          responses: { 200: { description: 'Unpublished' }, 400: error },
        },
      },
      ...chatPaths(),
      ...workflowPaths(),
      ...chatStreamPaths(),
      ...templatePaths(),
      ...resultsPaths(),
      ...workflowRunPaths(),
      ...typebotApiPaths(),
    },
  }
}
