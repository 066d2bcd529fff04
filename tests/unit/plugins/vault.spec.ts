import { test } from '@japa/runner'
import { decryptCredentials, encryptCredentials, redactSecrets } from '#plugins/vault'
import { field } from '#plugins/fields'

const SECRET = 'abcdefghijklmnopqrstuvwxyz012345'
const OTHER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'

test.group('Credentials vault', () => {
  test('round trip', ({ assert }) => {
    const data = { apiKey: 'sk-123', baseUrl: 'https://api.example.com/v1', nested: { a: [1, 2] } }
    const record = encryptCredentials(data, SECRET)
    assert.notInclude(record.data, 'sk-123')
    assert.equal(Buffer.from(record.iv, 'base64').length, 12)
    assert.deepEqual(decryptCredentials(record, SECRET), data)
  })

  test('a fresh iv for every record', ({ assert }) => {
    const a = encryptCredentials({ apiKey: 'same' }, SECRET)
    const b = encryptCredentials({ apiKey: 'same' }, SECRET)
    assert.notEqual(a.iv, b.iv)
    assert.notEqual(a.data, b.data)
  })

  test('a wrong key fails with a clear error', ({ assert }) => {
    const record = encryptCredentials({ apiKey: 'sk-123' }, SECRET)
    assert.throws(
      () => decryptCredentials(record, OTHER),
      /ENCRYPTION_SECRET is wrong or the data was modified/
    )
  })

  test('tampered data or iv fails', ({ assert }) => {
    const record = encryptCredentials({ apiKey: 'sk-123' }, SECRET)
    const bytes = Buffer.from(record.data, 'base64')
    bytes[0] ^= 1
    assert.throws(
      () => decryptCredentials({ ...record, data: bytes.toString('base64') }, SECRET),
      /data was modified/
    )
    const iv = Buffer.from(record.iv, 'base64')
    iv[0] ^= 1
    assert.throws(
      () => decryptCredentials({ ...record, iv: iv.toString('base64') }, SECRET),
      /data was modified/
    )
    assert.throws(() => decryptCredentials({ iv: '', data: '' }, SECRET), /data was modified/)
  })

  test('the secret must be exactly 32 characters', ({ assert }) => {
    assert.throws(
      () => encryptCredentials({}, 'short'),
      'ENCRYPTION_SECRET must be exactly 32 characters'
    )
    assert.throws(
      () => decryptCredentials({ iv: '', data: '' }, SECRET + 'x'),
      'ENCRYPTION_SECRET must be exactly 32 characters'
    )
  })

  test('the browser only learns whether secrets are set', ({ assert }) => {
    const declaration = {
      credentials: {
        apiKey: field.string({ label: 'API key', secret: true }),
        token: field.string({ label: 'Token', secret: true }),
        baseUrl: field.string({ label: 'Base URL' }),
      },
    }
    assert.deepEqual(
      redactSecrets(declaration, { apiKey: 'sk', token: '', baseUrl: 'https://x' }),
      {
        apiKey: 'set',
        token: 'not set',
      }
    )
  })
})
