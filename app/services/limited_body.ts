/**
 * Reads a response body of at most `maxBytes`: the announced length first, then what arrives.
 * The transfer stops as soon as it goes over, rather than reading a file that will be refused.
 * `tooLarge` makes the error to throw, given the announced length when that was the reason.
 */
export async function readBodyWithin(
  response: Response,
  maxBytes: number,
  tooLarge: (announcedBytes?: number) => Error
): Promise<Buffer> {
  const announced = Number(response.headers.get('content-length'))
  if (Number.isFinite(announced) && announced > maxBytes) throw tooLarge(announced)
  if (!response.body) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  let total = 0
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(Buffer.from(value))
  }
  return Buffer.concat(chunks)
}
