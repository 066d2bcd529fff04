import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto'
import { SignatureV4 } from '@smithy/signature-v4'
import { sendJson, startStandIn, type StandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for Amazon Bedrock's runtime (POST /model/{modelId}/converse). It checks
 * the SigV4 signature as AWS does, by signing the request again with the secret key through
 * the AWS SDK's own signer (@smithy/signature-v4) and comparing, so the app's signer is tested
 * against an independent implementation. It checks the Converse body (alternating turns,
 * toolResult blocks answering the previous toolUse ids) and answers the queued replies.
 */

export type ConverseReply =
  | { text: string; usage?: { input: number; output: number } }
  | {
      tools: { name: string; input: Record<string, unknown> }[]
      usage?: { input: number; output: number }
    }
  | { status: number; message: string }

/** The hash the signer is built with (SHA-256, or HMAC-SHA-256 when given a key). */
class Sha256 {
  #hash: Hash | Hmac
  readonly #key?: Uint8Array
  constructor(secret?: Uint8Array | string) {
    if (secret !== undefined) this.#key = typeof secret === 'string' ? Buffer.from(secret) : secret
    this.#hash = this.#fresh()
  }
  #fresh() {
    return this.#key ? createHmac('sha256', this.#key) : createHash('sha256')
  }
  update(data: Uint8Array | string) {
    this.#hash.update(typeof data === 'string' ? Buffer.from(data) : data)
  }
  async digest() {
    return new Uint8Array(this.#hash.digest())
  }
  reset() {
    this.#hash = this.#fresh()
  }
}

export interface BedrockAccount {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  region: string
}

/** Why the signature of a request is wrong, or undefined when AWS would accept it. */
async function signatureProblem(
  account: BedrockAccount,
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: string
): Promise<string | undefined> {
  const authorization = String(headers.authorization ?? '')
  const parsed =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization
    )
  if (!parsed) return 'The authorization header is not a SigV4 signature'
  const [, keyId, , region, service, signedHeaderList, signature] = parsed
  if (keyId !== account.accessKeyId) return 'The security token included in the request is invalid.'
  if (region !== account.region || service !== 'bedrock')
    return `Credential should be scoped to ${account.region}/bedrock`
  const signed = signedHeaderList.split(';')
  for (const required of ['host', 'x-amz-date']) {
    if (!signed.includes(required)) return `${required} must be signed`
  }
  if (account.sessionToken && headers['x-amz-security-token'] !== account.sessionToken)
    return 'The security token included in the request is invalid.'
  const signedHeaders: Record<string, string> = {}
  for (const name of signed) signedHeaders[name] = String(headers[name] ?? '')
  const amzDate = signedHeaders['x-amz-date']
  const date = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`
  )
  if (Math.abs(Date.now() - date.getTime()) > 5 * 60_000) return 'Signature expired'
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: account.accessKeyId,
      secretAccessKey: account.secretAccessKey,
      ...(account.sessionToken ? { sessionToken: account.sessionToken } : {}),
    },
    region: account.region,
    service: 'bedrock',
    sha256: Sha256 as any,
  })
  const [hostname, port] = signedHeaders.host.split(':')
  const again: { headers: Record<string, string> } = (await signer.sign(
    {
      method,
      protocol: 'http:',
      hostname,
      port: port ? Number(port) : undefined,
      path,
      query: {},
      headers: signedHeaders,
      body,
    } as any,
    { signingDate: date }
  )) as any
  const expected = /Signature=([0-9a-f]{64})/.exec(String(again.headers.authorization))?.[1]
  if (expected !== signature) {
    return 'The request signature we calculated does not match the signature you provided.'
  }
  return undefined
}

function problemsOf(body: any): string[] {
  if (!body || !Array.isArray(body.messages) || body.messages.length === 0)
    return ['messages missing']
  const problems: string[] = []
  let previous: any
  for (const message of body.messages) {
    if (!['user', 'assistant'].includes(message?.role)) problems.push(`bad role ${message?.role}`)
    if (previous?.role === message.role)
      problems.push('A conversation must alternate between user and assistant roles.')
    for (const block of message.content ?? []) {
      if (block.toolResult) {
        const asked = (previous?.content ?? []).some(
          (b: any) => b.toolUse?.toolUseId === block.toolResult.toolUseId
        )
        if (!asked) problems.push(`toolResult ${block.toolResult.toolUseId} answers no toolUse`)
      }
    }
    previous = message
  }
  if (body.messages[0].role !== 'user')
    problems.push('A conversation must start with a user message.')
  for (const tool of body.toolConfig?.tools ?? []) {
    if (!tool.toolSpec?.name || tool.toolSpec.inputSchema?.json?.type !== 'object')
      problems.push('toolSpec needs a name and an object inputSchema.json')
  }
  return problems
}

export async function startBedrockStandIn(account: BedrockAccount) {
  const queue: ConverseReply[] = []
  let toolUses = 0
  const standIn = await startStandIn<StandInRequest | undefined>(
    async ({ req, res, url, recorded, text }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      // AWS signs the path as sent (the model id percent-encoded once).
      const rawPath = (req.url ?? '/').split('?')[0]
      const problem = await signatureProblem(
        account,
        req.method ?? 'GET',
        rawPath,
        req.headers,
        text
      )
      if (problem) return send(403, { message: problem })
      const match = /^\/model\/([^/]+)\/converse$/.exec(url.pathname)
      if (req.method !== 'POST' || !match) return send(404, { message: 'Not found' })
      const problems = problemsOf(recorded?.body)
      if (problems.length > 0) return send(400, { message: problems.join('; ') })
      const reply = queue.shift() ?? { text: 'OK' }
      if ('status' in reply) return send(reply.status, { message: reply.message })
      const usage = reply.usage ?? { input: 12, output: 6 }
      const content =
        'text' in reply
          ? [{ text: reply.text }]
          : reply.tools.map((tool) => ({
              toolUse: { toolUseId: `tooluse_${++toolUses}`, name: tool.name, input: tool.input },
            }))
      return send(200, {
        output: { message: { role: 'assistant', content } },
        stopReason: 'text' in reply ? 'end_turn' : 'tool_use',
        usage: {
          inputTokens: usage.input,
          outputTokens: usage.output,
          totalTokens: usage.input + usage.output,
        },
        metrics: { latencyMs: 5 },
      })
    }
  )
  return { ...standIn, reply: (...replies: ConverseReply[]) => queue.push(...replies) }
}
