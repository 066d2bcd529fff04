import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { remainingDays, isExpired, planEndDate } from '#services/plans'
import { isBelowLimit } from '#services/capabilities'
import { defaultWorkspaceName, uniqueName } from '#actions/workspaces/default_workspace_name'
import { DEFAULT_PLANS, UNLIMITED, parseDuration } from '#shared/plans'
import { userModeForRole } from '#shared/workspace_roles'
import { newId } from '#services/ids'

test.group('Plans', () => {
  test('remaining days are the ceiling of days to the end date, at least 0', ({ assert }) => {
    const now = DateTime.fromISO('2026-01-01T12:00:00Z')
    assert.equal(remainingDays(now.plus({ days: 2, hours: 1 }), now), 3)
    assert.equal(remainingDays(now.plus({ hours: 1 }), now), 1)
    assert.equal(remainingDays(now.plus({ days: 5 }), now), 5)
    assert.equal(remainingDays(now.minus({ days: 3 }), now), 0)
    assert.isNull(remainingDays(null, now))
  })

  test('expiry and plan end dates', ({ assert }) => {
    const now = DateTime.fromISO('2026-01-01T00:00:00Z')
    assert.isTrue(isExpired(now.minus({ seconds: 1 }), now))
    assert.isFalse(isExpired(now.plus({ seconds: 1 }), now))
    assert.isFalse(isExpired(null, now))
    const free = DEFAULT_PLANS.find((p) => p.name === 'FREE')!
    assert.equal(planEndDate(free, now).toISODate(), '2028-01-01')
    assert.deepEqual(parseDuration('1 month'), { months: 1 })
    assert.deepEqual(parseDuration('30 days'), { days: 30 })
  })

  test('limits: below means strictly below; -1 is unlimited', ({ assert }) => {
    assert.isTrue(isBelowLimit(1, 0))
    assert.isFalse(isBelowLimit(1, 1))
    assert.isTrue(isBelowLimit(UNLIMITED, 1_000_000))
  })

  test('the FREE plan carries the fallback values and limits rise plan by plan', ({ assert }) => {
    const free = DEFAULT_PLANS[0]
    assert.deepInclude(free.limits, {
      vectorLimit: 0,
      userCopilotLimit: 100,
      multipleUser: 2,
      multipleWorkspace: 1,
    })
    for (let i = 1; i < DEFAULT_PLANS.length - 1; i++) {
      for (const [key, value] of Object.entries(DEFAULT_PLANS[i].limits)) {
        const previous = (DEFAULT_PLANS[i - 1].limits as any)[key]
        assert.isAtLeast(value, previous, `${DEFAULT_PLANS[i].name}.${key}`)
      }
    }
  })
})

test.group('Workspace names and roles', () => {
  test('default names', ({ assert }) => {
    assert.equal(defaultWorkspaceName('Ada', []), "Ada's workspace")
    assert.equal(defaultWorkspaceName('  ', []), 'My workspace')
    assert.equal(defaultWorkspaceName(null, ['My workspace']), 'My workspace (1)')
    assert.equal(defaultWorkspaceName(null, [], 'ada.l@example.com'), "ada.l's workspace")
    assert.equal(defaultWorkspaceName('Ada', [], 'ada.l@example.com'), "Ada's workspace")
    assert.equal(uniqueName('A', ['A', 'A (1)']), 'A (2)')
  })

  test('roles map to user modes', ({ assert }) => {
    assert.equal(userModeForRole('ADMIN'), 'write')
    assert.equal(userModeForRole('MEMBER'), 'write')
    assert.equal(userModeForRole('GUEST'), 'read')
    assert.equal(userModeForRole(null), 'guest')
  })

  test('ids are unique, url-safe and sort by creation', ({ assert }) => {
    const ids = Array.from({ length: 2000 }, () => newId())
    assert.equal(new Set(ids).size, ids.length)
    assert.deepEqual([...ids].sort(), ids)
    for (const id of ids.slice(0, 20)) assert.match(id, /^c[0-9a-z]{24}$/)
  })

  test('ids keep their order past 1,296 in one millisecond and when the clock steps back', ({
    assert,
  }) => {
    const realNow = Date.now
    const frozen = realNow()
    let clock = frozen
    Date.now = () => clock
    try {
      const ids = Array.from({ length: 3000 }, () => newId())
      clock = frozen - 5_000
      ids.push(...Array.from({ length: 10 }, () => newId()))
      assert.equal(new Set(ids).size, ids.length)
      assert.deepEqual([...ids].sort(), ids)
    } finally {
      Date.now = realNow
    }
  })
})
