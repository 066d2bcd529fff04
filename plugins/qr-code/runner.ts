import QRCode from 'qrcode'
import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** The largest text a version-40 QR code holds in byte mode at the lowest correction level. */
export const QR_MAX_BYTES = 2953

export const QR_TEXTS = {
  noData: 'QR code data is empty. Please provide the data to be encoded into the QR code.',
  noVariable:
    'QR code image URL is not specified. Please select a variable to save the generated QR code image.',
  tooLong: `QR code data is too long: a QR code holds at most ${QR_MAX_BYTES} bytes.`,
} as const

/**
 * Draws the PNG (512 px, medium error correction, lowered to low for long texts so that more
 * fits), stores it publicly (a visitor's browser shows it) and hands back its URL.
 */
const generate: Runner<typeof plugin, 'Generate a QR code'> = async (context) => {
  const { options, variables, logger, storage, surface } = context
  const data = options.data ?? ''
  if (!data.trim()) return void logger.error(QR_TEXTS.noData)
  if (surface === 'bot' && !options.saveUrlInVariableId) {
    return void logger.error(QR_TEXTS.noVariable)
  }
  const bytes = Buffer.byteLength(data, 'utf8')
  if (bytes > QR_MAX_BYTES) return void logger.error(QR_TEXTS.tooLong)
  const png = await QRCode.toBuffer(data, {
    type: 'png',
    width: 512,
    margin: 2,
    errorCorrectionLevel: bytes > 2000 ? 'L' : 'M',
  })
  const url = await storage.put(png, { type: 'image/png', name: 'qr-code.png' })
  if (options.saveUrlInVariableId) variables.set(options.saveUrlInVariableId, url)
  return { output: { url, data } }
}

export default { 'Generate a QR code': generate }
