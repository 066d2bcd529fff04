import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'

const folder = new URL('./', import.meta.url)

test.group('Plugin Cal.com', () => {
  test('pauses the chat on the booking widget, prefilled, the booked date going in the variable', async ({
    assert,
  }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        baseUrl: 'https://cal.example.com/',
        link: 'https://cal.example.com/ada/30min/',
        layout: 'Weekly',
        name: '{{Name}}',
        email: 'ada@example.com',
        additionalNotes: '',
        phone: ' +33 6 12 ',
        saveBookedDateInVariableId: 'v_date',
      },
      variables: [{ id: 'v_name', name: 'Name', value: 'Ada' }],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual(run.result, {
      clientSideActions: [
        {
          type: 'calBooking',
          calBooking: {
            baseUrl: 'https://cal.example.com',
            link: 'ada/30min',
            layout: 'week_view',
            prefill: { name: 'Ada', email: 'ada@example.com', phone: '+33 6 12' },
          },
        },
      ],
      pause: true,
      saveReplyInVariableId: 'v_date',
    })
  })

  test('Month by default on the cloud; an empty link or a bad URL is logged', async ({
    assert,
  }) => {
    const run = await runPluginTest({ folder, surface: 'bot', options: { link: 'ada' } })
    const [action] = (run.result as any).clientSideActions
    assert.deepEqual(action.calBooking, {
      baseUrl: 'https://app.cal.com',
      link: 'ada',
      layout: 'month_view',
      prefill: {},
    })
    const empty = await runPluginTest({ folder, surface: 'bot', options: { link: '{{None}}' } })
    assert.deepEqual(empty.errors, ['Cal.com: the event link is empty'])
    const bad = await runPluginTest({
      folder,
      surface: 'bot',
      options: { link: 'ada', baseUrl: 'ftp://x' },
    })
    assert.deepEqual(bad.errors, ['Cal.com: "ftp://x" is not a valid URL'])
  })
})
