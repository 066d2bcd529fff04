import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { localStamp } from '#services/chat/chat_store'

/* The hand-built dates of the chat's hot path must match what Lucid (luxon) writes. */
test.group('Chat store dates', () => {
  const formats = ['yyyy-MM-dd HH:mm:ss', "yyyy-MM-dd'T'HH:mm:ss.SSSZZ"] as const
  const dates = [
    new Date(),
    new Date('2026-01-02T03:04:05.006Z'),
    new Date('1999-12-31T23:59:59.999Z'),
    new Date('2026-07-15T12:00:00.000Z'),
    new Date(0),
  ]

  test('{format} matches luxon')
    .with(formats.map((format) => ({ format })))
    .run(({ assert }, { format }) => {
      for (const date of dates) {
        assert.equal(localStamp(date, format), DateTime.fromJSDate(date).toFormat(format))
      }
    })
})
