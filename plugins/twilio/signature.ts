import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Twilio's request signature (X-Twilio-Signature): HMAC-SHA1 keyed by the account's auth
 * token over the full URL Twilio called, followed by every POST parameter as name then
 * value, names sorted; base64. Twilio's webhook security page gives a worked example that
 * signature.spec.ts checks.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>
): string {
  let signed = url
  // Sorted by code unit, as Twilio's own helpers sort parameter names.
  for (const name of Object.keys(params).sort()) signed += name + params[name]
  return createHmac('sha1', authToken).update(signed, 'utf8').digest('base64')
}

/** Compares in constant time: a mismatch says nothing about how close it was. */
export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined
): boolean {
  if (!signature || !authToken) return false
  const expected = Buffer.from(twilioSignature(authToken, url, params))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
