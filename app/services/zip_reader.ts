import { inflateRawSync } from 'node:zlib'

/**
 * Reads the files of a zip archive held in memory (stored or deflated entries, as every
 * archiver writes them), for uploads such as a set of exported bots. Sizes come from the
 * central directory, so archives written with data descriptors read too. Zip64, encryption
 * and multi-disk archives are refused. Bounds guard against archives that inflate to far
 * more than they weigh.
 */

export class ZipError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ZipError'
  }
}

export interface ZipEntry {
  /** The path inside the archive ('folder/bot.json'). */
  name: string
  data: Buffer
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const CENTRAL_FILE_HEADER = 0x02014b50
const LOCAL_FILE_HEADER = 0x04034b50

export function isZip(bytes: Buffer) {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_FILE_HEADER
}

function endOfCentralDirectory(bytes: Buffer) {
  // The record is 22 bytes plus a comment of up to 65535 bytes, at the very end.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  for (let offset = bytes.length - 22; offset >= lowest; offset--) {
    if (bytes.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset
  }
  throw new ZipError('Not a zip archive')
}

export function readZip(
  bytes: Buffer,
  limits: { maxEntries: number; maxTotalBytes: number }
): ZipEntry[] {
  if (bytes.length < 22) throw new ZipError('Not a zip archive')
  const end = endOfCentralDirectory(bytes)
  const count = bytes.readUInt16LE(end + 10)
  const directoryOffset = bytes.readUInt32LE(end + 16)
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new ZipError('Zip64 archives are not supported')
  }
  const entries: ZipEntry[] = []
  let total = 0
  let cursor = directoryOffset
  for (let index = 0; index < count; index++) {
    if (cursor + 46 > bytes.length || bytes.readUInt32LE(cursor) !== CENTRAL_FILE_HEADER) {
      throw new ZipError('Damaged zip archive')
    }
    const flags = bytes.readUInt16LE(cursor + 8)
    const method = bytes.readUInt16LE(cursor + 10)
    const compressedSize = bytes.readUInt32LE(cursor + 20)
    const size = bytes.readUInt32LE(cursor + 24)
    const nameLength = bytes.readUInt16LE(cursor + 28)
    const extraLength = bytes.readUInt16LE(cursor + 30)
    const commentLength = bytes.readUInt16LE(cursor + 32)
    const localOffset = bytes.readUInt32LE(cursor + 42)
    const name = bytes.toString('utf8', cursor + 46, cursor + 46 + nameLength)
    cursor += 46 + nameLength + extraLength + commentLength

    if (name.endsWith('/')) continue
    if (entries.length >= limits.maxEntries) throw new ZipError('Too many files in the archive')
    if (flags & 0x1) throw new ZipError('Encrypted archives are not supported')
    total += size
    if (total > limits.maxTotalBytes) throw new ZipError('The archive is too large once unpacked')

    if (bytes.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) {
      throw new ZipError('Damaged zip archive')
    }
    const dataStart =
      localOffset + 30 + bytes.readUInt16LE(localOffset + 26) + bytes.readUInt16LE(localOffset + 28)
    const raw = bytes.subarray(dataStart, dataStart + compressedSize)
    if (raw.length !== compressedSize) throw new ZipError('Damaged zip archive')
    let data: Buffer
    if (method === 0) data = Buffer.from(raw)
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) })
      } catch {
        throw new ZipError('Damaged zip archive')
      }
    } else throw new ZipError('Unsupported zip compression')
    if (data.length !== size) throw new ZipError('Damaged zip archive')
    entries.push({ name, data })
  }
  return entries
}
