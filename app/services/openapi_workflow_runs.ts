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
    '/api/v1/workflows/{id}/runs': {
      get: {
        summary: 'Latest runs of a workflow',
        parameters: [
          idParam('id', 'Workflow id'),
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
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
        summary: "A run with each node's status, input, output and logs",
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
  }
}
