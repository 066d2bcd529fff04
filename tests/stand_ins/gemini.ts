import { sendJson, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for the Gemini API (v1beta): GET /models and POST
 * /models/{model}:generateContent. It checks what a client must send (the x-goog-api-key
 * header, contents alternating user/model, every functionResponse answering a
 * functionCall of the previous model turn, function declarations with an object schema)
 * and answers the replies the test queues, in order. A refused request gets Gemini's error
 * shape with the problem named.
 */

export type GeminiReply =
  | { text: string; thought?: string; usage?: { prompt: number; candidates: number } }
  | {
      calls: { name: string; args: Record<string, unknown> }[]
      usage?: { prompt: number; candidates: number }
    }
  | { status: number; message: string }
  | { blocked: string }

const error = (code: number, status: string, message: string) => ({
  error: { code, message, status },
})

function problemsOf(body: any): string[] {
  const problems: string[] = []
  if (!body || !Array.isArray(body.contents) || body.contents.length === 0)
    return ['contents missing']
  let previous: any
  for (const content of body.contents) {
    if (!['user', 'model'].includes(content?.role)) problems.push(`bad role ${content?.role}`)
    if (previous?.role === content.role) problems.push('turns must alternate')
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      problems.push('a turn without parts')
    for (const part of content.parts ?? []) {
      if (part.functionResponse) {
        const asked = (previous?.parts ?? []).some(
          (p: any) => p.functionCall?.name === part.functionResponse.name
        )
        if (!asked) problems.push(`functionResponse ${part.functionResponse.name} answers no call`)
        if (typeof part.functionResponse.response !== 'object')
          problems.push('response must be an object')
      }
    }
    previous = content
  }
  if (body.contents[0].role !== 'user') problems.push('the first turn must be the user')
  for (const tool of body.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      if (!declaration.name) problems.push('function without a name')
      if (declaration.parameters && declaration.parameters.type !== 'object')
        problems.push(`function ${declaration.name} parameters must be an object schema`)
      // Gemini's Schema is an OpenAPI subset: JSON-schema-only keys are refused.
      const text = JSON.stringify(declaration.parameters ?? {})
      for (const key of ['$schema', 'additionalProperties', '$ref'])
        if (text.includes(`"${key}"`)) problems.push(`Unknown name "${key}" in parameters`)
    }
  }
  const config = body.generationConfig ?? {}
  if (config.maxOutputTokens !== undefined && !Number.isInteger(config.maxOutputTokens))
    problems.push('maxOutputTokens must be an integer')
  return problems
}

export async function startGeminiStandIn(options: { apiKey: string; models?: string[] }) {
  const queue: GeminiReply[] = []
  const standIn = await startStandIn<StandInRequest | undefined>(({ req, res, url, recorded }) => {
    const send = (status: number, data: unknown) => sendJson(res, status, data)
    if (req.headers['x-goog-api-key'] !== options.apiKey) {
      return send(
        400,
        error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.')
      )
    }
    if (req.method === 'GET' && url.pathname === '/v1beta/models') {
      const names = options.models ?? ['gemini-2.0-flash', 'gemini-1.5-pro']
      return send(200, {
        models: [
          ...names.map((name) => ({
            name: `models/${name}`,
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          })),
          { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
        ],
      })
    }
    const match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname)
    if (req.method !== 'POST' || !match) return send(404, error(404, 'NOT_FOUND', 'Not found'))
    if (req.headers['content-type'] !== 'application/json')
      return send(400, error(400, 'INVALID_ARGUMENT', 'content-type'))
    const problems = problemsOf(recorded?.body)
    if (problems.length > 0) return send(400, error(400, 'INVALID_ARGUMENT', problems.join('; ')))
    const reply = queue.shift() ?? { text: 'OK' }
    if ('status' in reply)
      return send(reply.status, error(reply.status, 'UNAVAILABLE', reply.message))
    if ('blocked' in reply) {
      return send(200, {
        promptFeedback: { blockReason: reply.blocked },
        usageMetadata: { promptTokenCount: 3 },
      })
    }
    const usage = reply.usage ?? { prompt: 10, candidates: 5 }
    const parts =
      'text' in reply
        ? [...(reply.thought ? [{ text: reply.thought, thought: true }] : []), { text: reply.text }]
        : reply.calls.map((call) => ({ functionCall: { name: call.name, args: call.args } }))
    return send(200, {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.prompt,
        candidatesTokenCount: usage.candidates,
        totalTokenCount: usage.prompt + usage.candidates,
      },
      modelVersion: decodeURIComponent(match[1]),
    })
  })
  return { ...standIn, reply: (...replies: GeminiReply[]) => queue.push(...replies) }
}
