import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SignInController = () => import('#controllers/auth/sign_in_controller')
const OauthController = () => import('#controllers/auth/oauth_controller')
const TwoFactorChallengeController = () =>
  import('#controllers/auth/two_factor_challenge_controller')

router
  .group(() => {
    router.get('/signin', [SignInController, 'show'])
    router.post('/signin', [SignInController, 'store'])
    router.get('/register', [SignInController, 'showRegister'])
    router.post('/register', [SignInController, 'register'])
    router.get('/auth/:provider/redirect', [OauthController, 'redirect'])
    router.get('/auth/:provider/callback', [OauthController, 'callback'])
  })
  .use(middleware.guest())

router.get('/signin/check-email', [SignInController, 'checkEmail'])
router.get('/auth/magic/:token', [SignInController, 'magic'])
router.get('/forgot-password', [SignInController, 'forgotPassword'])
router.get('/reset-password', [SignInController, 'resetPassword'])
router.post('/logout', [SignInController, 'logout'])
router.post('/logout/everywhere', [SignInController, 'logoutEverywhere']).use(middleware.auth())

// The code page of two-factor sign-in: the pending sign-in lives in the session, nobody is
// signed in yet (docs/security.md, "Two-factor sign-in").
router.get('/signin/two-factor', [TwoFactorChallengeController, 'show'])
router.post('/signin/two-factor', [TwoFactorChallengeController, 'verify'])
router
  .get('/api/2fa/clearTwoFA', [TwoFactorChallengeController, 'clear'])
  .use(middleware.sameOrigin())
