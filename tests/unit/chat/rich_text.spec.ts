import { test } from '@japa/runner'
import {
  htmlToRichText,
  plainTextToRichText,
  richTextToMarkdown,
  richTextToPlainText,
  textBubbleToRichText,
} from '#shared/chat/rich_text'
import type { RichTextNode } from '#shared/chat/types'

const richText: RichTextNode[] = [
  {
    type: 'p',
    children: [
      { text: 'Hello ' },
      { text: 'Ada', bold: true },
      { text: ', read ' },
      { type: 'a', url: 'https://example.com/a b', children: [{ text: 'the docs', italic: true }] },
      { text: '.' },
    ],
  },
  { type: 'p', children: [{ text: '' }] },
  { type: 'p', children: [{ text: 'Bye', underline: true }] },
]

test.group('Rich text conversions', () => {
  test('plain text: one line per paragraph', ({ assert }) => {
    assert.equal(richTextToPlainText(richText), 'Hello Ada, read the docs.\n\nBye')
    assert.equal(richTextToPlainText([]), '')
    assert.equal(richTextToPlainText(undefined), '')
    assert.equal(
      richTextToPlainText([
        {
          type: 'ul',
          children: [
            { type: 'li', children: [{ text: 'one' }] },
            { type: 'li', children: [{ text: 'two' }] },
          ],
        },
      ]),
      'one\ntwo'
    )
  })

  test('markdown: marks, links, paragraphs as lines', ({ assert }) => {
    assert.equal(
      richTextToMarkdown(richText),
      'Hello **Ada**, read [*the docs*](https://example.com/a%20b).\n\nBye'
    )
  })

  test('markdown: markers hug the text, special characters are escaped', ({ assert }) => {
    assert.equal(
      richTextToMarkdown([{ type: 'p', children: [{ text: ' bold ', bold: true }] }]),
      ' **bold** '
    )
    assert.equal(
      richTextToMarkdown([{ type: 'p', children: [{ text: 'both', bold: true, italic: true }] }]),
      '***both***'
    )
    assert.equal(richTextToMarkdown(plainTextToRichText('2*3 = 6_x [a]')), '2\\*3 = 6\\_x \\[a\\]')
    assert.equal(
      richTextToMarkdown(plainTextToRichText('# not a title\n- not a list')),
      '\\# not a title\n\\- not a list'
    )
    assert.equal(
      richTextToMarkdown([{ type: 'p', children: [{ text: 'a*b', code: true }] }]),
      '`a*b`'
    )
  })

  test('markdown: headings and lists', ({ assert }) => {
    assert.equal(
      richTextToMarkdown([
        { type: 'h2', children: [{ text: 'Title' }] },
        {
          type: 'ol',
          children: [
            { type: 'li', children: [{ text: 'one' }] },
            { type: 'li', children: [{ text: 'two' }] },
          ],
        },
        {
          type: 'ul',
          children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'dot' }] }] }],
        },
      ]),
      '## Title\n1. one\n2. two\n- dot'
    )
  })

  test('plain text to rich text: one paragraph per line', ({ assert }) => {
    assert.deepEqual(plainTextToRichText('a\nb'), [
      { type: 'p', children: [{ text: 'a' }] },
      { type: 'p', children: [{ text: 'b' }] },
    ])
    assert.deepEqual(plainTextToRichText(''), [{ type: 'p', children: [{ text: '' }] }])
  })

  test('html to rich text: paragraphs, breaks, marks, links, entities', ({ assert }) => {
    assert.deepEqual(
      htmlToRichText(
        '<p>Hello <strong>big <em>world</em></strong> &amp; <a href="https://x.test/?a=1&amp;b=2">link</a></p>\n<p>line<br/>next</p><div><u>under</u></div>'
      ),
      [
        {
          type: 'p',
          children: [
            { text: 'Hello ' },
            { text: 'big ', bold: true },
            { text: 'world', bold: true, italic: true },
            { text: ' & ' },
            { type: 'a', url: 'https://x.test/?a=1&b=2', children: [{ text: 'link' }] },
          ],
        },
        { type: 'p', children: [{ text: 'line' }] },
        { type: 'p', children: [{ text: 'next' }] },
        { type: 'p', children: [{ text: 'under', underline: true }] },
      ]
    )
  })

  test('html to rich text: whitespace, scripts, stray tags, plain text', ({ assert }) => {
    assert.deepEqual(htmlToRichText('  just   text  '), [
      { type: 'p', children: [{ text: 'just text' }] },
    ])
    assert.deepEqual(htmlToRichText('<script>alert(1)</script><b>x</b></i>'), [
      { type: 'p', children: [{ text: 'x', bold: true }] },
    ])
    assert.deepEqual(htmlToRichText('a<br><br>b'), [
      { type: 'p', children: [{ text: 'a' }] },
      { type: 'p', children: [{ text: '' }] },
      { type: 'p', children: [{ text: 'b' }] },
    ])
    assert.deepEqual(htmlToRichText('1 &lt; 2 &#169; &#x263A; &bogus;'), [
      { type: 'p', children: [{ text: '1 < 2 © ☺ &bogus;' }] },
    ])
    assert.deepEqual(htmlToRichText(''), [{ type: 'p', children: [{ text: '' }] }])
  })

  test('a text bubble reads richText, else html, else plainText', ({ assert }) => {
    assert.deepEqual(textBubbleToRichText({ richText, html: '<p>no</p>' }), richText)
    assert.deepEqual(textBubbleToRichText({ richText: [], html: '<p>yes</p>' }), [
      { type: 'p', children: [{ text: 'yes' }] },
    ])
    assert.deepEqual(textBubbleToRichText({ plainText: 'plain' }), [
      { type: 'p', children: [{ text: 'plain' }] },
    ])
    assert.deepEqual(textBubbleToRichText(undefined), [{ type: 'p', children: [{ text: '' }] }])
  })
})
