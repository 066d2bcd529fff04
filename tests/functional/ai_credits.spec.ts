import { test } from '@japa/runner'
import AiModelPrice from '#models/ai_model_price'
import AiUsage from '#models/ai_usage'
import User from '#models/user'
import {
  AiAccountNotFoundError,
  AiCreditLimitExceededError,
  DEFAULT_PRICE_MODEL,
  aiCreditsText,
  aiUsageSummary,
  creditsCost,
  ensureAiCredits,
  grantAiCredits,
  recordAiUsage,
} from '#services/ai/credits'
import { runWithContext } from '#services/runner_context'
import { newId } from '#services/ids'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import {
  expectedNanos,
  nanosText,
  storedBalance,
  usageCount,
  setCredits,
  MINI,
  DEFAULT,
  probe,
} from '#tests/ai_credit_helpers'

/*
 * AI credit accounting against the real database (SQLite here; CI also runs it on
 * PostgreSQL and MariaDB, where decimals come back as strings). Expected amounts are
 * computed with integers, independently of the code under test.
 */

test.group('AI credits: cost, deduction and usage rows', (group) => {
  group.each.teardown(async () => {
    await AiModelPrice.query().whereIn('model', ['test-cheap', 'test-fraction']).delete()
  })

  test('the seeded prices include the default row and gpt-4o-mini', async ({ assert }) => {
    const fallback = await AiModelPrice.findByOrFail('model', DEFAULT_PRICE_MODEL)
    assert.equal(fallback.inputToken, DEFAULT.input)
    assert.equal(fallback.outputToken, DEFAULT.output)
    const mini = await AiModelPrice.findByOrFail('model', MINI.model)
    assert.equal(mini.inputToken, MINI.input)
    assert.equal(mini.outputToken, MINI.output)
  })

  test('cost = input / input price + output / output price, rounded to 9 decimals', ({
    assert,
  }) => {
    // 1234 / 6666667 = 0.000185099990745..., 567 / 1666667 = 0.000340199931960...
    // sum 0.000525299922705... -> 0.000525300 (the 10th decimal 9 rounds up).
    assert.equal(expectedNanos(1234, 567, MINI.input, MINI.output), 525_300n)
    assert.strictEqual(
      creditsCost(
        { inputTokens: 1234, outputTokens: 567 },
        { inputToken: 6_666_667, outputToken: 1_666_667 }
      ),
      0.0005253
    )
    // Exactly half a nano-credit rounds up; just below half rounds down.
    assert.strictEqual(
      creditsCost(
        { inputTokens: 1, outputTokens: 0 },
        { inputToken: 2_000_000_000, outputToken: 1 }
      ),
      0.000000001
    )
    assert.strictEqual(
      creditsCost(
        { inputTokens: 1, outputTokens: 0 },
        { inputToken: 2_000_000_001, outputToken: 1 }
      ),
      0
    )
    // 3 / 2e9 = 0.0000000015: a float's toFixed(9) says 0.000000001, the exact rule 0.000000002.
    assert.strictEqual(
      creditsCost(
        { inputTokens: 3, outputTokens: 0 },
        { inputToken: 2_000_000_000, outputToken: 1 }
      ),
      0.000000002
    )
    // Fractional prices (6 decimals in the table) are exact too: 3 / 1.5 + 1 / 0.25 = 6.
    assert.strictEqual(
      creditsCost({ inputTokens: 3, outputTokens: 1 }, { inputToken: 1.5, outputToken: 0.25 }),
      6
    )
    // A price of 0 means free, never a division by zero.
    assert.strictEqual(
      creditsCost({ inputTokens: 1000, outputTokens: 1000 }, { inputToken: 0, outputToken: 0 }),
      0
    )
  })

  test('a call leaves a usage row and deducts its cost from the new user’s 10 credits', async ({
    assert,
  }) => {
    const user = await createUser()
    assert.equal(await storedBalance(user.id), '10.000000000')
    const workspace = await firstWorkspaceOf(user)

    const cost = await recordAiUsage({
      userId: user.id,
      workspaceId: workspace.id,
      source: 'openai',
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
    })
    assert.strictEqual(cost, 0.0005253)
    assert.equal(await storedBalance(user.id), '9.999474700')
    assert.equal(await aiCreditsText(user.id), '9.999474700')

    const rows = await AiUsage.query().where('accountId', user.id)
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].accountId, user.id)
    assert.equal(rows[0].workspaceId, workspace.id)
    assert.equal(rows[0].model, MINI.model)
    assert.equal(rows[0].source, 'openai')
    assert.strictEqual(rows[0].inputTokens, 1234)
    assert.strictEqual(rows[0].outputTokens, 567)
    assert.strictEqual(rows[0].creditsUsed, 0.0005253)
  })

  test('the deduction stays exact to 9 decimals after many calls', async ({ assert }) => {
    const user = await createUser()
    await AiModelPrice.create({ model: 'test-fraction', inputToken: 3, outputToken: 7 })
    const calls = [
      { model: MINI.model, input: 1234, output: 567, prices: [MINI.input, MINI.output] },
      { model: MINI.model, input: 98_765, output: 4321, prices: [MINI.input, MINI.output] },
      { model: 'test-fraction', input: 1, output: 1, prices: [3, 7] },
      { model: 'test-fraction', input: 2, output: 5, prices: [3, 7] },
      { model: undefined, input: 777, output: 333, prices: [DEFAULT.input, DEFAULT.output] },
      { model: 'gpt-4o', input: 12_345, output: 6789, prices: [400_000, 100_000] },
      { model: 'test-fraction', input: 10, output: 1, prices: [3, 7] },
    ] as const
    let expected = 10_000_000_000n
    for (const call of calls) {
      const cost = await recordAiUsage({
        userId: user.id,
        model: call.model,
        inputTokens: call.input,
        outputTokens: call.output,
      })
      const nanos = expectedNanos(call.input, call.output, call.prices[0], call.prices[1])
      assert.equal(cost.toFixed(9), nanosText(nanos), `cost of ${call.model}`)
      expected -= nanos
    }
    // 1/3 + 1/7 and friends repeat forever: only exact rounding per call lands here.
    assert.equal(await storedBalance(user.id), nanosText(expected))
    assert.equal(await aiCreditsText(user.id), nanosText(expected))
    const fresh = await User.findOrFail(user.id)
    assert.equal(fresh.aiCredits.toFixed(9), nanosText(expected))

    const used = await AiUsage.query().where('accountId', user.id)
    const total = used.reduce((sum, row) => sum + BigInt(Math.round(row.creditsUsed * 1e9)), 0n)
    assert.equal(nanosText(10_000_000_000n - total), nanosText(expected))
  })

  test('no model, or a model without a price row, is charged at the default row', async ({
    assert,
  }) => {
    const user = await createUser()
    const none = await recordAiUsage({ userId: user.id, inputTokens: 1000, outputTokens: 1000 })
    const unpriced = await recordAiUsage({
      userId: user.id,
      model: `unpriced-${newId()}`,
      inputTokens: 1000,
      outputTokens: 1000,
    })
    // 1000 / 2,000,000 + 1000 / 500,000 = 0.0005 + 0.002
    assert.strictEqual(none, 0.0025)
    assert.strictEqual(unpriced, 0.0025)
    assert.equal(await storedBalance(user.id), '9.995000000')
    const rows = await AiUsage.query().where('accountId', user.id).orderBy('id')
    assert.isNull(rows[0].model)
    assert.match(rows[1].model!, /^unpriced-/)
  })

  test('a call that used no tokens is recorded at no cost', async ({ assert }) => {
    const user = await createUser()
    // MariaDB counts an UPDATE that changes nothing as 0 affected rows unless asked for
    // found rows: the owner must not turn into "User not found" here.
    assert.strictEqual(
      await recordAiUsage({ userId: user.id, model: MINI.model, inputTokens: 0, outputTokens: 0 }),
      0
    )
    assert.equal(await usageCount(user.id), 1)
    assert.equal(await storedBalance(user.id), '10.000000000')
  })

  test('ensureAiCredits refuses at 0 and below, and an unknown user', async ({ assert }) => {
    const user = await createUser()
    await ensureAiCredits(user.id)

    await setCredits(user.id, '0.000000001')
    await ensureAiCredits(user.id)

    await setCredits(user.id, '0')
    await assert.rejects(() => ensureAiCredits(user.id), AiCreditLimitExceededError)
    await setCredits(user.id, '-0.5')
    await assert.rejects(() => ensureAiCredits(user.id), AiCreditLimitExceededError)

    await assert.rejects(() => ensureAiCredits('no-such-user'), 'User not found')
    await assert.rejects(() => ensureAiCredits(null), AiAccountNotFoundError)
    await assert.rejects(
      () => recordAiUsage({ userId: 'no-such-user', inputTokens: 1, outputTokens: 1 }),
      'User not found'
    )
  })

  test('a call made with the last credit is still recorded, below zero', async ({ assert }) => {
    const user = await createUser()
    await setCredits(user.id, '0.001')
    await recordAiUsage({
      userId: user.id,
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
    })
    await recordAiUsage({ userId: user.id, inputTokens: 1000, outputTokens: 1000 })
    assert.equal(await storedBalance(user.id), '-0.002025300')
    await assert.rejects(() => ensureAiCredits(user.id), AiCreditLimitExceededError)
  })

  test('concurrent calls lose no deduction', async ({ assert }) => {
    const user = await createUser()
    const count = 24
    const costs = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        recordAiUsage({
          userId: user.id,
          model: MINI.model,
          inputTokens: 1000 + index,
          outputTokens: 500 + index,
        })
      )
    )
    let expected = 10_000_000_000n
    for (let index = 0; index < count; index++) {
      const nanos = expectedNanos(1000 + index, 500 + index, MINI.input, MINI.output)
      assert.equal(costs[index].toFixed(9), nanosText(nanos))
      expected -= nanos
    }
    assert.equal(await storedBalance(user.id), nanosText(expected))
    assert.equal(await usageCount(user.id), count)
  })

  test('credits can be granted, exactly; an unknown user gets nothing', async ({ assert }) => {
    const user = await createUser()
    await recordAiUsage({
      userId: user.id,
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
    })
    assert.equal(await grantAiCredits(user.id, '5.5'), '15.499474700')
    assert.equal(await grantAiCredits(user.id, 0.000525301), '15.500000001')
    assert.equal(await storedBalance(user.id), '15.500000001')
    assert.isUndefined(await grantAiCredits('no-such-user', 1))
  })

  test('the usage summary: balance, this month’s totals, the latest 50 rows', async ({
    assert,
  }) => {
    const user = await createUser()
    const empty = await aiUsageSummary(user.id)
    assert.equal(empty.credits, '10.000000000')
    assert.deepInclude(empty.month, {
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      credits: '0.000000000',
    })
    assert.deepEqual(empty.latest, [])

    for (let index = 0; index < 52; index++) {
      await recordAiUsage({
        userId: user.id,
        model: MINI.model,
        source: 'openai',
        inputTokens: 1234,
        outputTokens: 567,
      })
    }
    // A row of last month counts in the table but not in this month's totals.
    const old = await AiUsage.query().where('accountId', user.id).orderBy('id').firstOrFail()
    old.createdAt = old.createdAt.minus({ months: 2 })
    await old.save()
    // Someone else's usage never shows.
    const other = await createUser()
    await recordAiUsage({ userId: other.id, inputTokens: 5, outputTokens: 5 })

    const summary = await aiUsageSummary(user.id)
    assert.equal(summary.credits, nanosText(10_000_000_000n - 52n * 525_300n))
    assert.deepInclude(summary.month, {
      calls: 51,
      inputTokens: 51 * 1234,
      outputTokens: 51 * 567,
      credits: nanosText(51n * 525_300n),
    })
    assert.lengthOf(summary.latest, 50)
    assert.notInclude(
      summary.latest.map((row) => row.id),
      old.id
    )
    assert.deepInclude(summary.latest[0], {
      source: 'openai',
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
      credits: '0.000525300',
    })
    const ids = summary.latest.map((row) => row.id)
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest first'
    )
  })
})

test.group('AI credits: the runner context', () => {
  test('a user with 0 credits: ensureCredits stops the runner, flagged, with an error log', async ({
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    await setCredits(user.id, '0')
    let calledProvider = false
    const output = await runWithContext(
      async (ctx) => {
        await ctx.ai.ensureCredits()
        calledProvider = true
      },
      { plugin: probe, workspaceId: workspace.id, ownerId: user.id, variables: [], options: {} }
    )
    assert.isFalse(calledProvider)
    assert.isTrue(output.aiCreditLimitExceeded)
    assert.lengthOf(output.logs, 1)
    assert.equal(output.logs[0].status, 'error')
    assert.equal(output.logs[0].description, 'No AI credits left')
    assert.equal(await usageCount(user.id), 0)
  })

  test('with credits left the runner goes on and its usage is charged to the owner', async ({
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const output = await runWithContext(
      async (ctx) => {
        await ctx.ai.ensureCredits()
        await ctx.ai.recordUsage({ model: MINI.model, inputTokens: 1234, outputTokens: 567 })
        ctx.logger.success('answered')
      },
      { plugin: probe, workspaceId: workspace.id, ownerId: user.id, variables: [], options: {} }
    )
    assert.isUndefined(output.aiCreditLimitExceeded)
    assert.deepEqual(
      output.logs.map((log) => log.status),
      ['success']
    )
    assert.equal(await storedBalance(user.id), '9.999474700')
    const row = await AiUsage.query().where('accountId', user.id).firstOrFail()
    assert.equal(row.source, 'credits-probe')
    assert.equal(row.workspaceId, workspace.id)
  })

  test('a bot without an owner cannot spend credits: "User not found", not the limit', async ({
    assert,
  }) => {
    const output = await runWithContext(
      async (ctx) => {
        await ctx.ai.ensureCredits()
      },
      { plugin: probe, workspaceId: 'w', variables: [], options: {} }
    )
    assert.isUndefined(output.aiCreditLimitExceeded)
    assert.equal(output.logs[0].description, 'User not found')
  })
})
