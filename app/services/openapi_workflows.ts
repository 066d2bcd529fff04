/**
 * The OpenAPI description of the workflow routes (merged into openapi.ts). Texts go
 * through small helpers: they describe the API, they are not messages shown to people.
 */
import { error, pathParam, queryParam, reply, withText } from '#services/openapi_helpers'

const body = (schema: object, required = true) => ({
  required,
  content: { 'application/json': { schema } },
})

const status = { type: 'string', enum: ['DRAFT', 'PUBLISHED', 'DISABLED'] }
const dateTime = { type: 'string', format: 'date-time' }
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' }
const list = { type: 'array', items: { type: 'object' } }

const content = {
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  icon: { type: ['string', 'null'] },
  blocks: withText(list, 'Nodes: id, type (the plugin id), graphCoordinates, options...'),
  edges: withText(
    list,
    'from.blockId (and from.conditionId), to.blockId; isAttachment and attachmentName plug a model or tools into an LLM agent'
  ),
  variables: list,
  settings: withText(
    { type: 'object' },
    'errorHandling (retryCount, retryDelay, failureNotification), timeout, concurrency, logging'
  ),
}

const workflowJson = withText(
  {
    type: 'object',
    properties: {
      id: { type: 'string' },
      ...content,
      version: { type: 'integer' },
      status,
      isActive: { type: 'boolean' },
      executableWorkflow: withText(
        { type: ['object', 'null'] },
        'Compiled on publish: blocks, edges, root_block, wait_blocks'
      ),
      isArchived: { type: 'boolean' },
      workspaceId: { type: 'string' },
      updatedBy: { type: ['string', 'null'], enum: ['user', 'assistant', null] },
      isModifiedByAi: { type: 'boolean' },
      publishedAt: nullableDateTime,
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  'The workflow JSON (what the export writes and the import reads)'
)

const workflowResponse = {
  type: 'object',
  properties: {
    workflow: workflowJson,
    currentUserMode: { type: 'string', enum: ['write', 'read', 'guest'] },
  },
}

const summary = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    icon: { type: ['string', 'null'] },
    status,
    isActive: { type: 'boolean' },
    isArchived: { type: 'boolean' },
    publishedAt: nullableDateTime,
    lastRunAt: nullableDateTime,
    createdAt: dateTime,
    updatedAt: dateTime,
  },
}

const version = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    versionName: withText(
      { type: 'string' },
      "'Initial Version', then 'Version N', or the name given to a named save"
    ),
    kind: withText(
      { type: 'string', enum: ['draft', 'publish', 'restore', 'named', 'assistant'] },
      'What made it: the open draft (autosaves), a publish, a restore, a named save, a copilot change'
    ),
    workflow: withText(
      { type: 'object' },
      'name, description, icon, blocks, edges, variables, settings at that save'
    ),
    userId: { type: ['string', 'null'] },
    author: withText({ type: ['object', 'null'] }, 'id, name, email of who made it'),
    updatedBy: { type: 'string', enum: ['user', 'assistant'] },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
}

const n8nImportReply = {
  type: 'object',
  properties: {
    workflowId: withText({ type: 'string' }, 'Once saved'),
    report: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        nodes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              n8nType: { type: 'string' },
              type: withText({ type: 'string' }, 'The plugin id of the new node'),
              status: { type: 'string', enum: ['mapped', 'partial', 'placeholder'] },
              lost: withText(
                { type: 'array', items: { type: 'string' } },
                'What did not carry over'
              ),
              credentials: withText(
                { type: 'array', items: { type: 'string' } },
                'n8n credential types the node used: pick or create them again'
              ),
              disabled: { type: 'boolean' },
            },
          },
        },
        workflow: withText(
          { type: 'array', items: { type: 'string' } },
          'What of the workflow as a whole did not carry over'
        ),
        counts: { type: 'object' },
      },
    },
  },
}

const workflowId = pathParam('id', 'Workflow id')

/** One call that changes a workflow and answers with it. */
const action = (text: string, extra: Record<number, unknown> = {}) => ({
  post: {
    summary: text,
    parameters: [workflowId],
    responses: { 200: reply('The workflow', workflowResponse), 404: error, ...extra },
  },
})

export function workflowPaths() {
  return {
    '/api/v1/workflows/import-n8n': {
      post: {
        summary:
          'Import an n8n workflow: the report of what carries over, and the new workflow with save',
        description:
          'Nodes go through the plugins that take their n8n types; the others become disabled Imported nodes keeping their parameters. Credentials are never imported: the report names the nodes that need them (docs/migrating-from-n8n.md).',
        requestBody: body({
          type: 'object',
          required: ['workspaceId', 'workflow'],
          properties: {
            workspaceId: { type: 'string' },
            workflow: withText(
              { oneOf: [{ type: 'object' }, { type: 'string' }] },
              "n8n's workflow JSON (Download, copied nodes, or a template with the workflow under `workflow`), or its text"
            ),
            save: withText({ type: 'boolean' }, 'false (default): the report only'),
            name: withText({ type: 'string' }, 'Replaces the name'),
          },
        }),
        responses: {
          200: reply('The report (nothing saved)', n8nImportReply),
          201: reply('The report and the new workflow id', n8nImportReply),
          403: error,
          404: error,
          422: error,
        },
      },
    },
    '/api/v1/workflows': {
      post: {
        summary: 'Import a workflow (or start an empty one when no workflow is sent)',
        requestBody: body({
          type: 'object',
          required: ['workspaceId'],
          properties: {
            workspaceId: { type: 'string' },
            workflow: withText(
              { oneOf: [{ type: 'object' }, { type: 'string' }] },
              'The workflow JSON (or its text). Its id is kept when free; it arrives as an inactive draft'
            ),
            name: withText({ type: 'string' }, 'Replaces the name'),
          },
        }),
        responses: {
          201: reply('The new workflow', workflowResponse),
          403: error,
          404: error,
          422: error,
        },
      },
    },
    '/api/v1/workspaces/{id}/workflows': {
      get: {
        summary: 'Workflows of a workspace, most recently changed first',
        parameters: [
          pathParam('id', 'Workspace id'),
          queryParam('q', { type: 'string' }, 'Text in the name or the description'),
          queryParam('archived', { type: 'boolean' }, 'The archived workflows instead'),
        ],
        responses: {
          200: reply('The workflows', {
            type: 'object',
            properties: { workflows: { type: 'array', items: summary } },
          }),
          404: error,
        },
      },
    },
    '/api/v1/workflows/{id}': {
      get: {
        summary: 'A workflow',
        parameters: [workflowId],
        responses: { 200: reply('The workflow', workflowResponse), 404: error },
      },
      patch: {
        summary:
          'Save changes to the draft (checked against the workflow format). Changing the nodes, edges or variables of a PUBLISHED workflow makes its status DRAFT (unpublished changes): the published version keeps serving and an active workflow stays active until the next publish. Saves land in the open draft version of the history',
        parameters: [workflowId],
        requestBody: body({
          type: 'object',
          properties: {
            ...content,
            updatedBy: withText(
              { type: 'string', enum: ['user', 'assistant'] },
              'Who made the change (default user)'
            ),
            revision: withText(
              { type: 'integer', minimum: 0 },
              "The draft revision the change is based on (the workflow's revision when read): the save is refused with 409 when the draft was saved elsewhere since. Without it the last writer wins"
            ),
            isArchived: { type: 'boolean' },
          },
        }),
        responses: {
          200: reply('The workflow', workflowResponse),
          403: error,
          404: error,
          409: error,
          422: error,
        },
      },
      delete: {
        summary: 'Delete a workflow and its history',
        parameters: [workflowId],
        responses: { 204: reply('Deleted'), 403: error, 404: error },
      },
    },
    '/api/v1/workflows/{id}/publish': action(
      'Compile and publish the draft (one enabled trigger needed; every node enabled on the plan): it becomes the live version, an active workflow switches its trigger to it, and the history gets a version',
      { 403: error, 422: error }
    ),
    '/api/v1/workflows/{id}/activate': action(
      "Let the trigger start runs (published workflows only; counts against the plan). An event trigger registers with its service first (Telegram's setWebhook, Slack's auth.test, Gmail's first listing): a refusal answers 422 E_TRIGGER_ACTIVATION with the service's message, and the workflow stays inactive",
      { 403: error, 409: error, 422: error }
    ),
    '/api/v1/workflows/{id}/deactivate': action('Stop the trigger from starting runs', {
      403: error,
    }),
    '/api/v1/workflows/{id}/duplicate': {
      post: {
        summary: 'Copy a workflow (as an inactive draft)',
        parameters: [workflowId],
        responses: {
          201: reply('The copy', workflowResponse),
          403: error,
          404: error,
        },
      },
    },
    '/api/v1/workflows/{id}/versions': {
      get: {
        summary: 'The history of a workflow, newest first',
        parameters: [workflowId],
        responses: {
          200: reply('The versions', {
            type: 'object',
            properties: {
              versions: { type: 'array', items: version },
              updatedAt: nullableDateTime,
            },
          }),
          404: error,
        },
      },
      post: {
        summary: 'Keep the draft as it is now as a named version of the history',
        parameters: [workflowId],
        requestBody: body({
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 120 } },
        }),
        responses: {
          201: reply('The history', {
            type: 'object',
            properties: { versions: { type: 'array', items: version } },
          }),
          403: error,
          404: error,
          422: error,
        },
      },
    },
    '/api/v1/workflows/{id}/events/{nodeId}': {
      post: {
        summary:
          "Deliver an event to an active workflow's event trigger (Telegram updates with X-Telegram-Bot-Api-Secret-Token, Slack Events API calls signed with X-Slack-Signature). The trigger plugin checks the call: a run starts (200 {ok, runId}), or it answers itself (Slack's url_verification challenge, 200 for events its options filter out, 401 for a bad secret or signature). A retried delivery (same Slack event_id or Telegram update_id) starts no second run: 200 {ok, runId, duplicate: true}",
        security: [],
        parameters: [workflowId, pathParam('nodeId', "The trigger node's id")],
        requestBody: body({ type: 'object', additionalProperties: true }, false),
        responses: {
          200: reply(
            'A run started ({ok, runId}), a retry of a delivery already taken ({ok, runId, duplicate}), or the answer the service expects'
          ),
          401: error,
          404: error,
          409: error,
        },
      },
    },
    '/api/v1/workflows/{id}/versions/{versionId}/restore': {
      post: {
        summary:
          "Copy a version's nodes, edges, variables and settings over the draft (status DRAFT; the published version keeps serving), as a new version of the history",
        parameters: [workflowId, pathParam('versionId', 'Version id')],
        responses: { 200: reply('The workflow', workflowResponse), 403: error, 404: error },
      },
    },
  }
}
