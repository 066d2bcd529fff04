import { test } from '@japa/runner'
import { DocumentError, documentKindOf, extractText } from '#services/documents/extract_text'
import { docxOf, pdfOf } from '#tests/documents'

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a failure')
}

test.group('extractText', () => {
  test('a PDF gives its text and one entry per page', async ({ assert }) => {
    const pdf = pdfOf([
      ['Opening hours', 'Monday to Friday (9 to 5)'],
      ['Returns are free within 30 days'],
    ])
    const result = await extractText(pdf, { filename: 'guide.pdf' })
    assert.lengthOf(result.pages!, 2)
    assert.include(result.pages![0], 'Opening hours')
    assert.include(result.pages![0], 'Monday to Friday (9 to 5)')
    assert.include(result.pages![1], 'Returns are free within 30 days')
    assert.include(result.text, 'Opening hours')
    assert.include(result.text, 'Returns are free')
    assert.isBelow(result.text.indexOf('Opening'), result.text.indexOf('Returns'))
  })

  test('a damaged PDF and a PDF without text are refused with a reason', async ({ assert }) => {
    const pdf = pdfOf([['Hello']])
    const cut = pdf.subarray(0, 60)
    const damaged = await failure(extractText(cut, { filename: 'cut.pdf' }))
    assert.instanceOf(damaged, DocumentError)
    assert.match(damaged.message, /PDF is damaged/)

    const blank = await failure(extractText(pdfOf([[]]), { filename: 'scan.pdf' }))
    assert.instanceOf(blank, DocumentError)
    assert.equal(blank.message, 'The PDF has no text to read (a scanned document needs OCR first)')
  })

  test('a DOCX gives its paragraphs', async ({ assert }) => {
    const docx = docxOf(['Welcome to the shop', 'Delivery takes 2 days & costs €5'])
    const result = await extractText(docx, { filename: 'faq.docx' })
    assert.equal(result.text, 'Welcome to the shop\n\nDelivery takes 2 days & costs €5')
    assert.isUndefined(result.pages)

    const notWord = await failure(
      extractText(Buffer.from('PK not a zip at all'), { filename: 'broken.docx' })
    )
    assert.instanceOf(notWord, DocumentError)
    assert.equal(notWord.message, 'The DOCX file is damaged or not a Word document')
  })

  test('TXT and MD are read as UTF-8; other bytes are refused', async ({ assert }) => {
    const txt = await extractText(Buffer.from('\ufeffLine one  \r\n\r\n\r\n\r\nLine two\n'), {
      filename: 'notes.txt',
    })
    assert.equal(txt.text, 'Line one\n\nLine two')
    const md = await extractText(Buffer.from('# Title\n\n- a *point*'), {
      mimeType: 'text/markdown',
    })
    assert.equal(md.text, '# Title\n\n- a *point*')
    const latin1 = await failure(
      extractText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), { filename: 'a.txt' })
    )
    assert.equal(latin1.message, 'The TXT file is not UTF-8 text')
  })

  test('a CSV gives rows keyed by its header and a line per row', async ({ assert }) => {
    const csv = 'name,price,note\nTea,3,"hot, green"\nCake,4.5,\n\n'
    const result = await extractText(Buffer.from(csv), { filename: 'menu.csv' })
    assert.deepEqual(result.rows, [
      { name: 'Tea', price: '3', note: 'hot, green' },
      { name: 'Cake', price: '4.5', note: '' },
    ])
    assert.equal(result.text, 'name: Tea, price: 3, note: hot, green\nname: Cake, price: 4.5')

    const broken = await failure(
      extractText(Buffer.from('a,b\n"unclosed,1\n'), { filename: 'x.csv' })
    )
    assert.instanceOf(broken, DocumentError)
    assert.match(broken.message, /^The CSV file could not be read: /)
    const headerOnly = await failure(extractText(Buffer.from('a,b\n'), { filename: 'x.csv' }))
    assert.equal(headerOnly.message, 'The document has no text')
  })

  test('HTML gives its visible text, without scripts, styles or navigation', async ({ assert }) => {
    const html = `<html><head><style>p{color:red}</style><script>alert(1)</script></head>
      <body><nav>Home | About</nav><h1>Our menu</h1><p>Fresh <a href="https://x.test">bread</a> daily.</p>
      <img src="a.png" alt="pic"></body></html>`
    const result = await extractText(Buffer.from(html), { mimeType: 'text/html; charset=utf-8' })
    assert.equal(result.text, 'Our menu\n\nFresh bread daily.')
  })

  test('size cap, empty files and unknown kinds are refused', async ({ assert }) => {
    const big = await failure(
      extractText(Buffer.alloc(2 * 1024 * 1024, 97), { filename: 'a.txt', maxBytes: 1024 * 1024 })
    )
    assert.equal(big.message, 'The file is too large (2 MB); the limit is 1 MB')
    const empty = await failure(extractText(new Uint8Array(0), { filename: 'a.txt' }))
    assert.equal(empty.message, 'The file is empty')
    const spaces = await failure(extractText(Buffer.from('  \n \n'), { filename: 'a.md' }))
    assert.equal(spaces.message, 'The document has no text')
    const image = await failure(
      extractText(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { filename: 'a.png' })
    )
    assert.equal(
      image.message,
      '"a.png" is not a supported document: use PDF, DOCX, TXT, MD, CSV or HTML'
    )
  })

  test('the kind comes from the signature, then the content type, then the extension', ({
    assert,
  }) => {
    assert.equal(documentKindOf(Buffer.from('%PDF-1.7'), { filename: 'x.txt' }), 'pdf')
    assert.equal(
      documentKindOf(Buffer.from('a'), { mimeType: 'text/csv', filename: 'x.txt' }),
      'csv'
    )
    assert.equal(documentKindOf(Buffer.from('a'), { filename: 'https://x.test/a.MD?x=1' }), 'md')
    assert.isUndefined(documentKindOf(Buffer.from('a'), { mimeType: 'application/octet-stream' }))
  })
})
