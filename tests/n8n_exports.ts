/**
 * n8n workflow exports of different shapes, written here from n8n's documented workflow
 * format (nodes with name, type, typeVersion, position, parameters, credentials, notes;
 * connections keyed by the source node's name). Used by tests/functional/n8n_import.spec.ts
 * and the browser test. `base` is the URL of the test's HTTP stand-in.
 */

type Node = {
  name: string
  type: string
  typeVersion: number
  position: [number, number]
  parameters: Record<string, unknown>
  credentials?: Record<string, { id: string; name: string }>
  notes?: string
  disabled?: boolean
  webhookId?: string
}

const node = (
  name: string,
  type: string,
  typeVersion: number,
  position: [number, number],
  parameters: Record<string, unknown> = {},
  extra: Partial<Node> = {}
): Node => ({ name, type, typeVersion, position, parameters, ...extra })

const to = (...targets: (string | [string, number])[]) =>
  targets.map((target) =>
    typeof target === 'string'
      ? { node: target, type: 'main', index: 0 }
      : { node: target[0], type: 'main', index: target[1] }
  )

/** 1. Webhook → Edit Fields (v3.4) → Respond to Webhook with a JSON body. */
export function greetingExport() {
  return {
    name: 'Greeting API',
    nodes: [
      node(
        'Webhook',
        'n8n-nodes-base.webhook',
        2,
        [0, 0],
        { httpMethod: 'POST', path: 'greet', responseMode: 'responseNode', options: {} },
        { webhookId: '5f1c2f7e-0000-4000-8000-000000000001' }
      ),
      node(
        'Build greeting',
        'n8n-nodes-base.set',
        3.4,
        [220, 0],
        {
          mode: 'manual',
          assignments: {
            assignments: [
              { id: 'a1', name: 'greeting', value: '=Hello {{ $json.body.name }}', type: 'string' },
              { id: 'a2', name: 'length', value: '={{ $json.body.name.length }}', type: 'number' },
              { id: 'a3', name: 'at', value: '={{ $now }}', type: 'string' },
            ],
          },
          options: {},
        },
        { notes: 'Builds the answer from the body' }
      ),
      node('Respond', 'n8n-nodes-base.respondToWebhook', 1.1, [440, 0], {
        respondWith: 'json',
        responseBody: '={ "greeting": "{{ $json.greeting }}", "letters": {{ $json.length }} }',
        options: { responseCode: 201 },
      }),
    ],
    connections: {
      'Webhook': { main: [to('Build greeting')] },
      'Build greeting': { main: [to('Respond')] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
  }
}

/** 2. Webhook (last node) → HTTP Request v4.2 with query and header → Edit Fields reading both. */
export function userLookupExport(base: string) {
  return {
    name: 'User lookup',
    nodes: [
      node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], {
        httpMethod: 'GET',
        path: 'user',
        responseMode: 'lastNode',
        options: {},
      }),
      node('Fetch user', 'n8n-nodes-base.httpRequest', 4.2, [220, 0], {
        method: 'GET',
        url: `=${base}/users/{{ $json.query.id }}`,
        sendQuery: true,
        queryParameters: { parameters: [{ name: 'expand', value: 'team' }] },
        sendHeaders: true,
        headerParameters: {
          parameters: [{ name: 'X-Caller', value: '={{ $json.query.caller }}' }],
        },
        options: {},
      }),
      node('Shape', 'n8n-nodes-base.set', 3.4, [440, 0], {
        assignments: {
          assignments: [
            { id: 'b1', name: 'user.name', value: '={{ $json.name }}', type: 'string' },
            {
              id: 'b2',
              name: 'user.requestedBy',
              value: "={{ $('Webhook').item.json.query.caller }}",
              type: 'string',
            },
            { id: 'b3', name: 'team', value: '={{ $json.team.toUpperCase() }}', type: 'string' },
          ],
        },
        options: {},
      }),
    ],
    connections: {
      'Webhook': { main: [to('Fetch user')] },
      'Fetch user': { main: [to('Shape')] },
    },
  }
}

/** 3. Manual trigger → IF (v2 filter) → two Edit Fields branches. */
export function approvalExport() {
  return {
    name: 'Approval',
    nodes: [
      node('When clicking Test workflow', 'n8n-nodes-base.manualTrigger', 1, [0, 0]),
      node('Big order?', 'n8n-nodes-base.if', 2, [220, 0], {
        conditions: {
          options: { caseSensitive: true, typeValidation: 'strict' },
          conditions: [
            {
              id: 'c1',
              leftValue: '={{ $json.amount }}',
              rightValue: 100,
              operator: { type: 'number', operation: 'gt' },
            },
          ],
          combinator: 'and',
        },
        options: {},
      }),
      node('Needs approval', 'n8n-nodes-base.set', 3.4, [440, -100], {
        assignments: {
          assignments: [{ id: 'd1', name: 'decision', value: 'review', type: 'string' }],
        },
        includeOtherFields: true,
        options: {},
      }),
      node('Auto approve', 'n8n-nodes-base.set', 3.4, [440, 100], {
        assignments: {
          assignments: [{ id: 'd2', name: 'decision', value: 'approved', type: 'string' }],
        },
        includeOtherFields: true,
        options: {},
      }),
    ],
    connections: {
      'When clicking Test workflow': { main: [to('Big order?')] },
      'Big order?': { main: [to('Needs approval'), to('Auto approve')] },
    },
  }
}

/** 4. Webhook → Switch (v3 rules, fallback output) → three Respond to Webhook nodes. */
export function routerExport() {
  const respond = (name: string, y: number, code: number, text: string) =>
    node(name, 'n8n-nodes-base.respondToWebhook', 1.1, [660, y], {
      respondWith: 'text',
      responseBody: `=${text} {{ $json.body.kind }}`,
      options: { responseCode: code },
    })
  const rule = (value: string) => ({
    conditions: {
      options: { caseSensitive: true },
      conditions: [
        {
          leftValue: '={{ $json.body.kind }}',
          rightValue: value,
          operator: { type: 'string', operation: 'equals' },
        },
      ],
      combinator: 'and',
    },
  })
  return {
    name: 'Router',
    nodes: [
      node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], {
        httpMethod: 'POST',
        path: 'route',
        responseMode: 'responseNode',
      }),
      node('Route', 'n8n-nodes-base.switch', 3, [220, 0], {
        rules: { values: [rule('order'), rule('refund')] },
        options: { fallbackOutput: 'extra' },
      }),
      respond('Order', -150, 200, 'order'),
      respond('Refund', 0, 202, 'refund'),
      respond('Unknown', 150, 422, 'unknown'),
    ],
    connections: {
      Webhook: { main: [to('Route')] },
      Route: { main: [to('Order'), to('Refund'), to('Unknown')] },
    },
  }
}

/** 5. Webhook → two HTTP requests side by side → Merge (combine by position) → Respond. */
export function mergeExport(base: string) {
  return {
    name: 'Profile and orders',
    nodes: [
      node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], {
        httpMethod: 'POST',
        path: 'profile',
        responseMode: 'responseNode',
      }),
      node('Profile', 'n8n-nodes-base.httpRequest', 4.2, [220, -100], {
        url: `=${base}/profile/{{ $json.body.id }}`,
        options: {},
      }),
      node('Orders', 'n8n-nodes-base.httpRequest', 4.2, [220, 100], {
        method: 'POST',
        url: `${base}/orders`,
        sendBody: true,
        bodyParameters: { parameters: [{ name: 'customer', value: '={{ $json.body.id }}' }] },
        options: {},
      }),
      node('Merge', 'n8n-nodes-base.merge', 3, [440, 0], {
        mode: 'combineByPosition',
        options: {},
      }),
      node('Respond', 'n8n-nodes-base.respondToWebhook', 1.1, [660, 0], {
        respondWith: 'firstIncomingItem',
        options: {},
      }),
    ],
    connections: {
      Webhook: { main: [to('Profile', 'Orders')] },
      Profile: { main: [to(['Merge', 0])] },
      Orders: { main: [to(['Merge', 1])] },
      Merge: { main: [to('Respond')] },
    },
  }
}

/**
 * 6. Schedule trigger → Airtable (no equivalent, with credentials) → Code (JavaScript over
 * items), plus a sticky note and pinned data.
 */
export function nightlyExport() {
  return {
    name: 'Nightly digest',
    nodes: [
      node('Every night', 'n8n-nodes-base.scheduleTrigger', 1.2, [0, 0], {
        rule: { interval: [{ field: 'days', triggerAtHour: 2, triggerAtMinute: 30 }] },
      }),
      node(
        'Read table',
        'n8n-nodes-base.airtable',
        2.1,
        [220, 0],
        { operation: 'search', base: { __rl: true, value: 'appXYZ', mode: 'id' } },
        { credentials: { airtableTokenApi: { id: '12', name: 'Airtable account' } } }
      ),
      node(
        'Summarise',
        'n8n-nodes-base.code',
        2,
        [440, 0],
        {
          jsCode:
            "const all = $input.all()\nreturn all.map((item) => ({ json: { digest: 'Digest for ' + (item.json.team ?? 'nobody'), count: all.length } }))",
        },
        { notes: 'One digest line per team' }
      ),
      node('Note', 'n8n-nodes-base.stickyNote', 1, [0, -200], {
        content: '## Nightly\nRuns at 2:30 and summarises the table.',
      }),
    ],
    connections: {
      'Every night': { main: [to('Read table')] },
      'Read table': { main: [to('Summarise')] },
    },
    pinData: { 'Read table': [{ json: { team: 'pinned' } }] },
  }
}

/** 7. Webhook → Wait (resume on a call) → Edit Fields using the resume call and the first call. */
export function waitExport() {
  return {
    name: 'Wait for approval',
    nodes: [
      node('Webhook', 'n8n-nodes-base.webhook', 2, [0, 0], {
        httpMethod: 'POST',
        path: 'ask',
        responseMode: 'onReceived',
      }),
      node('Wait', 'n8n-nodes-base.wait', 1.1, [220, 0], { resume: 'webhook', options: {} }),
      node('Result', 'n8n-nodes-base.set', 3.4, [440, 0], {
        assignments: {
          assignments: [
            {
              id: 'r1',
              name: 'asked',
              value: "={{ $('Webhook').item.json.body.question }}",
              type: 'string',
            },
            { id: 'r2', name: 'answer', value: '={{ $json.body.answer }}', type: 'string' },
          ],
        },
      }),
    ],
    connections: {
      Webhook: { main: [to('Wait')] },
      Wait: { main: [to('Result')] },
    },
  }
}

/**
 * 8. Chat trigger → AI Agent with an OpenAI chat model (credentials), a memory and a tool
 * (neither has an equivalent), the legacy way of writing a node reference, and a disabled
 * node.
 */
export function agentExport() {
  return {
    name: 'Support agent',
    nodes: [
      node('When chat message received', '@n8n/n8n-nodes-langchain.chatTrigger', 1.1, [0, 0], {
        options: {},
      }),
      node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 1.7, [220, 0], {
        promptType: 'define',
        text: '=Customer says: {{ $json.chatInput }}',
        options: { systemMessage: 'You are the support desk of Acme.' },
      }),
      node(
        'OpenAI Chat Model',
        '@n8n/n8n-nodes-langchain.lmChatOpenAi',
        1.2,
        [200, 220],
        {
          model: { __rl: true, value: 'gpt-4o-mini', mode: 'list' },
          options: { temperature: 0.2 },
        },
        { credentials: { openAiApi: { id: '7', name: 'OpenAi account' } } }
      ),
      node('Memory', '@n8n/n8n-nodes-langchain.memoryBufferWindow', 1.3, [340, 220], {
        contextWindowLength: 10,
      }),
      node('Calculator', '@n8n/n8n-nodes-langchain.toolCalculator', 1, [480, 220]),
      node(
        'Log',
        'n8n-nodes-base.set',
        3.4,
        [440, 0],
        {
          assignments: {
            assignments: [
              {
                id: 'l1',
                name: 'reply',
                value: '={{ $node["AI Agent"].json.output }}',
                type: 'string',
              },
            ],
          },
        },
        { disabled: true }
      ),
    ],
    connections: {
      'When chat message received': { main: [to('AI Agent')] },
      'AI Agent': { main: [to('Log')] },
      'OpenAI Chat Model': {
        ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
      },
      'Memory': { ai_memory: [[{ node: 'AI Agent', type: 'ai_memory', index: 0 }]] },
      'Calculator': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
    },
  }
}

/** 9. Legacy versions: Cron → HTTP Request v1 (POST JSON) → IF v1 → Set v2. */
export function legacyExport(base: string) {
  return {
    name: 'Legacy poller',
    nodes: [
      node('Cron', 'n8n-nodes-base.cron', 1, [0, 0], {
        triggerTimes: { item: [{ mode: 'everyHour', minute: 15 }] },
      }),
      node('Post status', 'n8n-nodes-base.httpRequest', 1, [220, 0], {
        requestMethod: 'POST',
        url: `${base}/status`,
        jsonParameters: true,
        bodyParametersJson: '={ "source": "legacy" }',
        options: {},
      }),
      node('Healthy?', 'n8n-nodes-base.if', 1, [440, 0], {
        conditions: {
          string: [{ value1: '={{ $json.state }}', operation: 'equal', value2: 'ok' }],
        },
      }),
      node('Mark healthy', 'n8n-nodes-base.set', 2, [660, -100], {
        keepOnlySet: true,
        values: {
          string: [{ name: 'health', value: 'green' }],
          number: [{ name: 'code', value: 1 }],
        },
      }),
      node('Mark broken', 'n8n-nodes-base.set', 2, [660, 100], {
        keepOnlySet: true,
        values: { string: [{ name: 'health', value: '=red: {{ $json.state }}' }] },
      }),
    ],
    connections: {
      'Cron': { main: [to('Post status')] },
      'Post status': { main: [to('Healthy?')] },
      'Healthy?': { main: [to('Mark healthy'), to('Mark broken')] },
    },
  }
}

/** 10a. A sub-workflow: Execute Workflow Trigger → Edit Fields. */
export function subWorkflowExport() {
  return {
    name: 'Price with tax',
    nodes: [
      node('When called', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, [0, 0], {
        inputSource: 'passthrough',
      }),
      node('Add tax', 'n8n-nodes-base.set', 3.4, [220, 0], {
        assignments: {
          assignments: [
            { id: 't1', name: 'gross', value: '={{ $json.net * 1.2 }}', type: 'number' },
          ],
        },
        includeOtherFields: true,
      }),
    ],
    connections: { 'When called': { main: [to('Add tax')] } },
  }
}

/** 10b. Its caller: Manual trigger → Execute Workflow (by n8n id) → Edit Fields. */
export function callerExport() {
  return {
    name: 'Quote',
    nodes: [
      node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0]),
      node('Price with tax', 'n8n-nodes-base.executeWorkflow', 1.2, [220, 0], {
        workflowId: {
          __rl: true,
          value: 'Abc123n8nId',
          mode: 'list',
          cachedResultName: 'Price with tax',
        },
        options: {},
      }),
      node('Quote', 'n8n-nodes-base.set', 3.4, [440, 0], {
        assignments: {
          assignments: [
            { id: 'q1', name: 'quote', value: '=Total: {{ $json.gross }} EUR', type: 'string' },
          ],
        },
      }),
    ],
    connections: {
      'Start': { main: [to('Price with tax')] },
      'Price with tax': { main: [to('Quote')] },
    },
  }
}
