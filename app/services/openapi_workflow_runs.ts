/** OpenAPI paths of workflow runs and webhook triggers (see app/services/openapi.ts). */
import { error, pathParam as idParam } from '#services/openapi_helpers'

const runSummary = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    workflowId: { type: 'string' },
    status: {
      type: 'string',
      enum: ['queued', 'running', 'success', 'error', 'waiting', 'cancelled'],
    },
    trigger: { type: 'string', enum: ['manual', 'webhook', 'schedule', 'event', 'api'] },
    isTest: { type: 'boolean', description: 'A test run of the draft, started from the editor' },
    error: { type: ['string', 'null'] },
    startedAt: { type: ['string', 'null'] },
    finishedAt: { type: ['string', 'null'] },
    durationMs: { type: ['number', 'null'] },
    createdAt: { type: 'string' },
  },
}

export function workflowRunPaths() {
  const webhook = (summary: string) => ({
    summary,
    security: [],
    parameters: [idParam('id', 'Workflow id')],
    responses: {
      200: { description: "The run's answer (last node or respond node)" },
      202: { description: 'Accepted: {runId}' },
      401: error,
      404: error,
      405: error,
    },
  })
  return {
    '/api/v1/workflows/{id}/run': {
      post: {
        summary: 'Run a published workflow now (manual trigger)',
        parameters: [idParam('id', 'Workflow id')],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { input: { type: 'object', additionalProperties: true } },
              },
            },
          },
        },
        responses: { 202: { description: 'Queued: {runId}' }, 400: error, 404: error },
      },
    },
    '/api/v1/workflows/{id}/test-run': {
      post: {
        summary:
          'Test-run the draft as it is now, published or not: compiled with the checks of a publish, kept out of the runs list. A trigger taking webhook calls gets input as the body of a sample call',
        parameters: [idParam('id', 'Workflow id')],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  input: { description: 'Sample payload' },
                  nodeId: {
                    type: 'string',
                    description: 'Test this step: run only this node and the nodes leading to it',
                  },
                  usePinned: {
                    type: 'boolean',
                    description:
                      "false: the trigger's pinned data is not used (default: used when pinned)",
                  },
                },
              },
            },
          },
        },
        responses: { 202: { description: 'Queued: {runId}' }, 404: error, 422: error },
      },
    },
    '/api/v1/workflows/{id}/runs': {
      get: {
        summary: 'Latest runs of a workflow (test runs of the draft only with tests=true)',
        parameters: [
          idParam('id', 'Workflow id'),
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'tests', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          200: {
            description: 'Runs, newest first',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { runs: { type: 'array', items: runSummary } },
                },
              },
            },
          },
          404: error,
        },
      },
    },
    '/api/v1/runs/{runId}': {
      get: {
        summary:
          "A run with each node's status, input, output, logs, timing and error (with its cause)",
        parameters: [idParam('runId', 'Run id')],
        responses: { 200: { description: 'The run' }, 404: error },
      },
    },
    '/api/v1/workflows/{id}/webhook': {
      get: webhook("Call an active workflow's webhook trigger (GET)"),
      post: webhook(
        "Call an active workflow's webhook trigger (POST; secret in x-webhook-secret or ?secret=)"
      ),
    },
    '/api/v1/workflows/{id}/webhook/runs/{runId}': {
      post: {
        summary: 'Resume a run whose wait node waits for a webhook call',
        security: [],
        parameters: [idParam('id', 'Workflow id'), idParam('runId', 'Run id')],
        responses: { 200: { description: 'Resumed' }, 404: error },
      },
    },
    '/api/v1/plugins/{pluginId}/sessions/{sessionId}/{callback}': {
      post: {
        summary:
          "A service calling back a plugin's session (a call in progress, say); the plugin checks the call's signature",
        security: [],
        parameters: [
          idParam('pluginId', 'Plugin id'),
          idParam('sessionId', 'The random session token given to the service'),
          idParam('callback', 'One of the callbacks the plugin declares'),
        ],
        requestBody: {
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
        },
        responses: {
          200: { description: "The plugin's answer, in the service's format" },
          403: { description: 'Signature missing or wrong' },
          404: error,
        },
      },
    },
  }
}
