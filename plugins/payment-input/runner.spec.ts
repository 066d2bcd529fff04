import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { amountInMinorUnits, amountLabel, keysFor, parse, run, setStripeApiUrl } from './runner.js'
import { parseAnswer, runBlock } from '#sdk/testing'

const credentials = {
  livePublicKey: 'pk_live_1',
  liveSecretKey: 'sk_live_1',
  testPublicKey: 'pk_test_1',
  testSecretKey: 'sk_test_1',
}

interface Created {
  authorization?: string
  body: URLSearchParams
}

/** A stand-in of the Stripe API: creates payment intents and reports their status. */
function startStripe(created: Created[], statuses: Map<string, string>): Promise<Server> {
  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk) => (raw += chunk))
    request.on('end', () => {
      response.setHeader('content-type', 'application/json')
      if (request.method === 'POST' && request.url === '/v1/payment_intents') {
        const body = new URLSearchParams(raw)
        created.push({ authorization: request.headers.authorization, body })
        const id = `pi_${created.length}`
        statuses.set(id, 'requires_payment_method')
        return response.end(
          JSON.stringify({
            id,
            object: 'payment_intent',
            amount: Number(body.get('amount')),
            currency: body.get('currency'),
            client_secret: `${id}_secret_abc`,
            status: 'requires_payment_method',
          })
        )
      }
      const match = /^\/v1\/payment_intents\/([\w]+)$/.exec(request.url ?? '')
      if (request.method === 'GET' && match && statuses.has(match[1])) {
        return response.end(
          JSON.stringify({ id: match[1], object: 'payment_intent', status: statuses.get(match[1]) })
        )
      }
      response.statusCode = 404
      response.end(
        JSON.stringify({
          error: { type: 'invalid_request_error', message: 'No such payment_intent' },
        })
      )
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

test.group('Payment input: amounts and keys', () => {
  test('amounts in the smallest unit of the currency', ({ assert }) => {
    assert.equal(amountInMinorUnits('30', 'USD'), 3000)
    assert.equal(amountInMinorUnits('30.5', 'eur'), 3050)
    assert.equal(amountInMinorUnits('19,99', 'EUR'), 1999)
    assert.equal(amountInMinorUnits('0.1', 'USD'), 10)
    assert.equal(amountInMinorUnits('500', 'JPY'), 500)
    assert.equal(amountInMinorUnits('1.234', 'KWD'), 1234)
    for (const amount of ['', 'free', '-5', '0', '1,000.00', '{{Price}}']) {
      assert.isUndefined(amountInMinorUnits(amount, 'USD'), amount)
    }
  })

  test('amount labels', ({ assert }) => {
    assert.equal(amountLabel(3050, 'usd'), '$30.50')
    assert.equal(amountLabel(500, 'JPY'), '¥500')
    assert.equal(amountLabel(3050, 'NOPE'), '30.50 NOPE')
  })

  test('test keys in preview when complete, live keys otherwise', ({ assert }) => {
    assert.deepEqual(keysFor(credentials, true), { secretKey: 'sk_test_1', publicKey: 'pk_test_1' })
    assert.deepEqual(keysFor(credentials, false), {
      secretKey: 'sk_live_1',
      publicKey: 'pk_live_1',
    })
    assert.deepEqual(keysFor({ ...credentials, testSecretKey: '' }, true), {
      secretKey: 'sk_live_1',
      publicKey: 'pk_live_1',
    })
    assert.isUndefined(keysFor({ livePublicKey: 'pk' }, false))
  })
})

test.group('Payment input against a Stripe stand-in', (group) => {
  const created: Created[] = []
  const statuses = new Map<string, string>()
  let server: Server

  group.setup(async () => {
    server = await startStripe(created, statuses)
    setStripeApiUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return async () => {
      setStripeApiUrl(undefined)
      await new Promise((resolve) => server.close(resolve))
    }
  })
  group.each.setup(() => {
    created.length = 0
    statuses.clear()
  })

  const options = {
    provider: 'Stripe',
    credentialsId: 'cred1',
    amount: '30.50',
    currency: 'EUR',
    additionalInformation: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phoneNumber: '+33612345678',
      description: 'Workshop ticket',
      address: { line1: '1 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' },
    },
  }

  test('run creates a payment intent and gives the browser what it confirms with', async ({
    assert,
  }) => {
    const result = await runBlock(run, { blockId: 'pay', options, credentials })
    assert.lengthOf(created, 1)
    const { authorization, body } = created[0]
    assert.equal(authorization, 'Bearer sk_live_1')
    assert.equal(body.get('amount'), '3050')
    assert.equal(body.get('currency'), 'eur')
    assert.equal(body.get('automatic_payment_methods[enabled]'), 'true')
    assert.equal(body.get('receipt_email'), 'ada@example.com')
    assert.equal(body.get('description'), 'Workshop ticket')
    assert.equal(body.get('shipping[name]'), 'Ada Lovelace')
    assert.equal(body.get('shipping[address][line1]'), '1 rue de la Paix')
    assert.equal(body.get('shipping[address][postal_code]'), '75002')
    assert.equal(body.get('metadata[blockId]'), 'pay')
    assert.deepEqual(result.input!.runtimeOptions, {
      paymentIntentSecret: 'pi_1_secret_abc',
      publicKey: 'pk_live_1',
      amountLabel: '€30.50',
    })
    assert.equal(result.input!.options!.paymentIntentId, 'pi_1')
    assert.equal(result.input!.options!.amount, '30.50')
  })

  test('run uses the test keys in preview', async ({ assert }) => {
    const result = await runBlock(run, { options, credentials, isPreview: true })
    assert.equal(created[0].authorization, 'Bearer sk_test_1')
    assert.equal(result.input!.runtimeOptions!.publicKey, 'pk_test_1')
  })

  test('run fails without keys or with an invalid amount, before calling Stripe', async ({
    assert,
  }) => {
    await assert.rejects(() => runBlock(run, { options, credentials: {} }), /no secret/)
    await assert.rejects(
      () => runBlock(run, { options: { ...options, amount: 'free' }, credentials }),
      /not a valid amount/
    )
    assert.lengthOf(created, 0)
  })

  test('parse accepts "Success" once Stripe says the intent is paid', async ({ assert }) => {
    const shown = await runBlock(run, { options, credentials })
    const asked = { options: shown.input!.options, credentials }
    statuses.set('pi_1', 'succeeded')
    assert.deepEqual(await parseAnswer(parse, 'Success', asked), {
      status: 'success',
      value: 'Success',
    })
    statuses.set('pi_1', 'processing')
    assert.equal((await parseAnswer(parse, 'Success', asked)).status, 'success')
  })

  test('parse refuses other answers and unpaid intents', async ({ assert }) => {
    const shown = await runBlock(run, { options, credentials })
    const asked = { options: shown.input!.options, credentials }
    // The browser says it paid, Stripe says otherwise.
    assert.deepEqual(await parseAnswer(parse, 'Success', asked), {
      status: 'fail',
      reason: 'The payment is requires payment method',
    })
    statuses.set('pi_1', 'succeeded')
    assert.equal((await parseAnswer(parse, 'Failed', asked)).status, 'fail')
    assert.equal((await parseAnswer(parse, '', asked)).status, 'fail')
    // No intent was created for this input.
    assert.equal((await parseAnswer(parse, 'Success', { options, credentials })).status, 'fail')
  })
})
