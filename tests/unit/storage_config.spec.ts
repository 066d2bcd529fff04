import { test } from '@japa/runner'
import {
  DEFAULT_S3_BUCKET,
  DEFAULT_S3_REGION,
  S3_MISCONFIGURED_MESSAGE,
  s3ConfigOf,
  storageRootOf,
} from '#services/storage_config'

test.group('Storage configuration', () => {
  test('the local disk unless the S3 variables are set', ({ assert }) => {
    assert.isNull(s3ConfigOf({}))
    assert.isNull(s3ConfigOf({ S3_ENDPOINT: '', S3_ACCESS_KEY: ' ', S3_BUCKET: 'b' }))
    assert.equal(storageRootOf({}, '/srv/app'), '/srv/app/storage')
    assert.equal(storageRootOf({ STORAGE_PATH: 'files' }, '/srv/app'), '/srv/app/files')
    assert.equal(storageRootOf({ STORAGE_PATH: '/data/files' }, '/srv/app'), '/data/files')
  })

  test('S3 with the three variables; bucket and region have defaults', ({ assert }) => {
    const required = { S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 's' }
    assert.deepEqual(s3ConfigOf(required), {
      endpoint: 'http://minio:9000',
      accessKeyId: 'a',
      secretAccessKey: 's',
      bucket: DEFAULT_S3_BUCKET,
      region: DEFAULT_S3_REGION,
    })
    const full = s3ConfigOf({
      ...required,
      S3_ENDPOINT: 's3.eu-west-3.amazonaws.com',
      S3_BUCKET: 'uploads',
      S3_REGION: 'eu-west-3',
    })
    assert.equal(full?.endpoint, 'https://s3.eu-west-3.amazonaws.com')
    assert.equal(full?.bucket, 'uploads')
    assert.equal(full?.region, 'eu-west-3')
  })

  test('part of the S3 variables is refused with the message naming them', ({ assert }) => {
    const partials = [
      { S3_ENDPOINT: 'http://minio:9000' },
      { S3_ACCESS_KEY: 'a' },
      { S3_SECRET_KEY: 's' },
      { S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a' },
      { S3_ENDPOINT: 'http://minio:9000', S3_SECRET_KEY: 's' },
      { S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 's', S3_BUCKET: 'b' },
    ]
    for (const partial of partials) {
      assert.throws(() => s3ConfigOf(partial), S3_MISCONFIGURED_MESSAGE)
    }
    assert.equal(
      S3_MISCONFIGURED_MESSAGE,
      'S3 not properly configured. Missing one of those variables: S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY'
    )
  })
})
