import { test } from '@japa/runner'
import { trustedProxies } from '#services/trusted_proxies'

test.group('TRUSTED_PROXIES', () => {
  test('unset or empty trusts no peer', ({ assert }) => {
    for (const value of [undefined, '', ' , ']) {
      const trust = trustedProxies(value)
      assert.isFalse(trust('127.0.0.1'))
      assert.isFalse(trust('::1'))
      assert.isFalse(trust('10.0.0.1'))
    }
  })

  test('names, addresses and ranges, IPv4-mapped peers included', ({ assert }) => {
    const trust = trustedProxies('loopback, 10.1.2.3, 192.168.0.0/16, 2001:db8::/32')
    assert.isTrue(trust('127.0.0.1'))
    assert.isTrue(trust('::ffff:127.0.0.5'))
    assert.isTrue(trust('::1'))
    assert.isTrue(trust('10.1.2.3'))
    assert.isFalse(trust('10.1.2.4'))
    assert.isTrue(trust('192.168.77.1'))
    assert.isTrue(trust('2001:db8::1'))
    assert.isFalse(trust('2001:db9::1'))
    assert.isFalse(trust('8.8.8.8'))
    assert.isFalse(trust('not an address'))
    const local = trustedProxies('uniquelocal,linklocal')
    assert.isTrue(local('172.20.0.2'))
    assert.isTrue(local('169.254.1.1'))
    assert.isTrue(local('fd00::1'))
    assert.isFalse(local('127.0.0.1'))
  })

  test('a wrong entry is refused with the variable named', ({ assert }) => {
    assert.throws(() => trustedProxies('127.0.0.1, nginx'), /TRUSTED_PROXIES: "nginx"/)
    assert.throws(() => trustedProxies('10.0.0.0/33'), /TRUSTED_PROXIES/)
  })
})
