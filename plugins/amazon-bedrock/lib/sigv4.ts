import { createHash, createHmac } from 'node:crypto'

/**
 * AWS Signature Version 4 for one request (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
 * the canonical request, the string to sign and the signing key derived from the secret for
 * the day, region and service. Returns the headers to send (host, x-amz-date,
 * x-amz-content-sha256, the session token when there is one, and authorization).
 */

export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

export interface SignInput {
  method: string
  url: URL
  headers: Record<string, string>
  body: string
  region: string
  service: string
  credentials: AwsCredentials
  /** The signing time (defaults to now). */
  date?: Date
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding, as SigV4 wants it: only A-Z a-z 0-9 - _ . ~ stay as they are. */
export function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/**
 * Services other than S3 sign each path segment encoded once more than it is sent: the
 * segment the URL already holds (`a%3A0`) is encoded again (`a%253A0`).
 */
function canonicalPath(url: URL): string {
  const path = url.pathname || '/'
  return path
    .split('/')
    .map((segment) => awsEncode(segment))
    .join('/')
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams.entries()]
    .map(([key, value]) => [awsEncode(key), awsEncode(value)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&')
}

export function signRequest(input: SignInput): Record<string, string> {
  const date = input.date ?? new Date()
  const amzDate = date.toISOString().replace(/[:-]|\.\d{3}/g, '')
  const day = amzDate.slice(0, 8)
  const payloadHash = sha256Hex(input.body)
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(input.headers)) headers[key.toLowerCase()] = value
  headers['host'] = input.url.host
  headers['x-amz-date'] = amzDate
  headers['x-amz-content-sha256'] = payloadHash
  if (input.credentials.sessionToken)
    headers['x-amz-security-token'] = input.credentials.sessionToken

  const names = Object.keys(headers).sort()
  const canonicalHeaders = names
    .map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}\n`)
    .join('')
  const signedHeaders = names.join(';')
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(input.url),
    canonicalQuery(input.url),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n')
  const scope = `${day}/${input.region}/${input.service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n')
  const key = hmac(
    hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), input.service),
    'aws4_request'
  )
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex')
  headers['authorization'] =
    `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`
  return headers
}
