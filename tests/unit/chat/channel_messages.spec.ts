import { test } from '@japa/runner'
import { channelText } from '#services/channels/formatting'
import { outgoingOf, CHOICES_PROMPT } from '#services/channels/outgoing'
import { whatsAppBodies } from '#services/channels/whatsapp'
import { incomingOfUpdate } from '#services/channels/telegram'
import type { RichTextNode } from '#shared/chat/types'

/* How chat replies become Telegram and WhatsApp messages (docs/channels.md). */

const rich = (...nodes: RichTextNode[]) => ({ type: 'richText' as const, richText: nodes })

test.group('Channel messages', () => {
  test('rich text keeps its formatting in each markup, escaped for Telegram HTML', ({ assert }) => {
    const content = rich(
      { type: 'h2', children: [{ text: 'Offer' }] },
      {
        type: 'p',
        children: [
          { text: '1 < 2 & ' },
          { text: 'bold', bold: true },
          { text: ' ' },
          { text: 'it', italic: true },
          { text: ' ' },
          { text: 'gone', strikethrough: true },
          { text: ' ' },
          { text: 'under', underline: true },
          { text: ' ' },
          { text: 'x=1', code: true },
        ],
      },
      {
        type: 'ul',
        children: [
          { type: 'li', children: [{ text: 'one' }] },
          { type: 'li', children: [{ text: 'two' }] },
        ],
      },
      {
        type: 'p',
        children: [
          { type: 'a', url: 'https://a.test/?q="x"', children: [{ text: 'site' }] },
          { text: ' and ' },
          { type: 'a', url: 'https://b.test/', children: [{ text: 'https://b.test/' }] },
        ],
      }
    )
    assert.equal(
      channelText(content, 'telegram'),
      [
        '<b>Offer</b>',
        '1 &lt; 2 &amp; <b>bold</b> <i>it</i> <s>gone</s> <u>under</u> <code>x=1</code>',
        '• one',
        '• two',
        '<a href="https://a.test/?q=&quot;x&quot;">site</a> and <a href="https://b.test/">https://b.test/</a>',
      ].join('\n')
    )
    assert.equal(
      channelText(content, 'whatsapp'),
      [
        '*Offer*',
        '1 < 2 & *bold* _it_ ~gone~ under ```x=1```',
        '• one',
        '• two',
        'site (https://a.test/?q="x") and https://b.test/',
      ].join('\n')
    )
  })

  test('media, video sites, documents and limit errors', ({ assert }) => {
    const out = outgoingOf(
      {
        messages: [
          { id: '1', type: 'image', content: { url: 'https://x.test/a.png' } },
          { id: '2', type: 'video', content: { type: 'youtube', id: 'abc' } },
          { id: '3', type: 'video', content: { type: 'url', url: 'https://x.test/v.mp4' } },
          { id: '4', type: 'audio', content: { url: 'https://x.test/a.mp3' } },
          { id: '5', type: 'embed', content: { url: 'https://x.test/terms.pdf' } },
          { id: '6', type: 'embed', content: { url: 'https://x.test/page' } },
          { id: '7', type: 'image', content: {} },
        ],
        chatLimitExceededError: 'Limit reached',
      },
      'telegram'
    )
    assert.deepEqual(out, [
      { kind: 'image', url: 'https://x.test/a.png' },
      { kind: 'text', text: 'https://www.youtube.com/watch?v=abc' },
      { kind: 'video', url: 'https://x.test/v.mp4' },
      { kind: 'audio', url: 'https://x.test/a.mp3' },
      { kind: 'file', url: 'https://x.test/terms.pdf' },
      { kind: 'text', text: 'https://x.test/page' },
      { kind: 'text', text: 'Limit reached' },
    ])
  })

  test('choices take the last text as their question, or a prompt; WhatsApp lists more than 3', ({
    assert,
  }) => {
    const items = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((content, i) => ({
      id: `i${i}`,
      content,
    }))
    const withoutText = outgoingOf(
      {
        messages: [{ id: '1', type: 'image', content: { url: 'https://x.test/a.png' } }],
        input: { id: 'b', type: 'choice input', options: {}, items },
      },
      'whatsapp'
    )
    assert.equal(withoutText[1].kind, 'choices')
    assert.equal((withoutText[1] as { text: string }).text, CHOICES_PROMPT)
    // Seven choices: one list message of seven rows (docs/channels.md).
    const bodies = whatsAppBodies('33600000000', withoutText)
    assert.lengthOf(bodies, 2)
    assert.equal((bodies[1] as any).interactive.type, 'list')
    assert.deepEqual(
      (bodies[1] as any).interactive.action.sections.flatMap((s: any) =>
        s.rows.map((r: any) => [r.id, r.title])
      ),
      items.map((item) => [item.id, item.content])
    )
    // Up to three choices stay reply buttons.
    const three = outgoingOf(
      {
        messages: [],
        input: { id: 'b', type: 'choice input', options: {}, items: items.slice(0, 3) },
      },
      'whatsapp'
    )
    const buttons = whatsAppBodies('33600000000', three).at(-1) as any
    assert.equal(buttons.interactive.type, 'button')
    assert.deepEqual(
      buttons.interactive.action.buttons.map((b: any) => b.reply.id),
      ['i0', 'i1', 'i2']
    )
    // Picture choices are labelled with their title.
    const pictures = outgoingOf(
      {
        messages: [],
        input: {
          id: 'b',
          type: 'picture choice input',
          options: {},
          items: [{ id: 'p1', title: 'Sea', pictureSrc: 'https://x.test/sea.png' } as any],
        },
      },
      'telegram'
    )
    assert.deepEqual(pictures, [
      { kind: 'choices', text: CHOICES_PROMPT, choices: [{ id: 'p1', label: 'Sea' }] },
    ])
  })

  test('Telegram updates: messages, captions, button presses; others are not messages', ({
    assert,
  }) => {
    const chat = { id: 9, type: 'private' }
    assert.deepInclude(
      incomingOfUpdate({
        update_id: 3,
        message: { chat, from: { first_name: 'Ada' }, text: 'hi' },
      })!,
      { deliveryId: 'update:3', contactId: '9', text: 'hi', contact: { name: 'Ada' } }
    )
    assert.equal(
      incomingOfUpdate({ update_id: 4, message: { chat, caption: 'photo caption' } })!.text,
      'photo caption'
    )
    assert.deepInclude(
      incomingOfUpdate({
        update_id: 5,
        callback_query: { id: 'q', data: 'it_1', message: { chat } },
      })!,
      { text: 'it_1', callbackQueryId: 'q', contactId: '9' }
    )
    assert.isNull(incomingOfUpdate({ update_id: 6, edited_message: { chat, text: 'x' } }))
    assert.isNull(incomingOfUpdate({ message: { chat, text: 'no id' } }))
  })
})
