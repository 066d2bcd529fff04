import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const PagesController = () => import('#controllers/app/pages_controller')
const SettingsController = () => import('#controllers/settings/settings_controller')
const WorkspacesController = () => import('#controllers/workspaces/workspaces_controller')
const MembersController = () => import('#controllers/workspaces/members_controller')
const UsersController = () => import('#controllers/account/users_controller')
const OnboardingController = () => import('#controllers/account/onboarding_controller')
const ApiTokensController = () => import('#controllers/account/api_tokens_controller')
const TwoFactorController = () => import('#controllers/account/two_factor_controller')
const EditorController = () => import('#controllers/bots/editor_controller')
const DashboardController = () => import('#controllers/bots/dashboard_controller')
const TypebotImportController = () => import('#controllers/bots/typebot_import_controller')
const CredentialsController = () => import('#controllers/settings/credentials_controller')
const CredentialOAuthController = () => import('#controllers/settings/credential_oauth_controller')
const AdminPluginsController = () => import('#controllers/admin/plugins_controller')
const AdminAiPricesController = () => import('#controllers/admin/ai_prices_controller')
const AdminWorkspacesController = () => import('#controllers/admin/workspaces_controller')
const BillingController = () => import('#controllers/billing/billing_controller')
const PluginsApiController = () => import('#controllers/api/plugins_controller')
const PluginFetchersController = () => import('#controllers/api/plugin_fetchers_controller')
const PluginCallsController = () => import('#controllers/api/plugin_calls_controller')
const KnowledgeStoresController = () => import('#controllers/knowledge/knowledge_stores_controller')

const ViewerController = () => import('#controllers/chat/viewer_controller')
const SessionController = () => import('#controllers/auth/session_controller')
const DocsController = () => import('#controllers/app/docs_controller')

// A custom domain shows its bot at its root; the app's own host goes to the dashboard.
router.get('/', [ViewerController, 'root']).as('viewer.root')

// The guides of docs/, public (the menus' documentation entry, unless DOCS_URL is set).
router.get('/docs', [DocsController, 'show'])
router.get('/docs/:page', [DocsController, 'show'])

// Exempt from the sign-in redirect; the controller decides the mode.
router.get('/bots/:id/edit', [EditorController, 'show'])
router.get('/bots/:id/theme', [EditorController, 'show'])
router.get('/bots/:id/settings', [EditorController, 'show'])
router.get('/bots/:id/results', [EditorController, 'show'])
router.get('/bots/:id/results/analytics', [EditorController, 'show'])

router
  .group(() => {
    router.get('/bots', [DashboardController, 'index'])
    router.get('/bots/create', [DashboardController, 'create'])
    router.post('/bots', [DashboardController, 'createBot'])
    router.post('/bots/import', [DashboardController, 'importBot'])
    router.get('/bots/import-typebot', [TypebotImportController, 'show'])
    router.post('/api/bots/import-set', [TypebotImportController, 'store'])
    router.get('/bots/:id/export', [DashboardController, 'exportBot'])
    router.post('/bots/:id/duplicate', [DashboardController, 'duplicate'])
    router.patch('/bots/:id', [DashboardController, 'updateBot'])
    router.delete('/bots/:id', [DashboardController, 'deleteBot'])
    router.post('/folders', [DashboardController, 'createFolder'])
    router.patch('/folders/:id', [DashboardController, 'updateFolder'])
    router.delete('/folders/:id', [DashboardController, 'deleteFolder'])
    router.get('/api/folders/:id/sharing', [DashboardController, 'sharing'])
    router.put('/api/folders/:id/sharing', [DashboardController, 'updateSharing'])
    router.get('/bots/plans', [PagesController, 'plans'])
    router.get('/vectors', [KnowledgeStoresController, 'index'])
    router.post('/vectors', [KnowledgeStoresController, 'store'])
    router.get('/vectors/backend-indexes', [KnowledgeStoresController, 'backendIndexes'])
    router.get('/vectors/:id', [KnowledgeStoresController, 'show'])
    router.patch('/vectors/:id', [KnowledgeStoresController, 'update'])
    router.delete('/vectors/:id', [KnowledgeStoresController, 'destroy'])
    router.get('/vectors/:id/sources', [KnowledgeStoresController, 'sources'])
    router.post('/vectors/:id/sources', [KnowledgeStoresController, 'addSource'])
    router.post('/vectors/:id/sources/:sourceId/reindex', [
      KnowledgeStoresController,
      'reindexSource',
    ])
    router.delete('/vectors/:id/sources/:sourceId', [KnowledgeStoresController, 'destroySource'])
    router.post('/vectors/:id/search', [KnowledgeStoresController, 'search'])
    router.get('/suspended', [PagesController, 'suspended'])
    router.get('/past-due', [PagesController, 'pastDue'])
    router.post('/billing/checkout', [BillingController, 'checkout'])
    router.post('/billing/portal', [BillingController, 'portal'])
    router.get('/dashboard', ({ response }) => response.redirect('/bots'))
    router.get('/_app', ({ response }) => response.redirect('/bots'))
    router.get('/account', ({ response }) => response.redirect('/settings/account/profile'))
    router.get('/settings', ({ response }) => response.redirect('/settings/account/profile'))
    router.get('/settings/:section/:tab', [SettingsController, 'show'])

    router.post('/workspaces', [WorkspacesController, 'store'])
    router.post('/workspaces/:id/switch', [WorkspacesController, 'switch'])
    router.patch('/workspaces/:id', [WorkspacesController, 'update'])
    router.delete('/workspaces/:id', [WorkspacesController, 'destroy'])
    router.post('/workspaces/:id/invitations', [MembersController, 'invite'])
    router.delete('/workspaces/:id/invitations/:invitationId', [
      MembersController,
      'revokeInvitation',
    ])
    router.patch('/workspaces/:id/members/:userId', [MembersController, 'update'])
    router.delete('/workspaces/:id/members/:userId', [MembersController, 'destroy'])

    router.post('/settings/account/photo', [UsersController, 'updatePhoto'])
    router.delete('/settings/account/photo', [UsersController, 'removePhoto'])
    router.post('/settings/account/two-factor/setup', [TwoFactorController, 'setup'])
    router.delete('/settings/account/two-factor/setup', [TwoFactorController, 'cancelSetup'])
    router.post('/settings/account/two-factor/confirm', [TwoFactorController, 'confirm'])
    router.post('/settings/account/two-factor/recovery-codes', [TwoFactorController, 'regenerate'])
    router.post('/settings/account/two-factor/disable', [TwoFactorController, 'disable'])
    router.post('/settings/account/keys', [ApiTokensController, 'store'])
    router.delete('/settings/account/keys/:id', [ApiTokensController, 'destroy'])
    router.post('/settings/account/credentials', [CredentialsController, 'store'])
    router.patch('/settings/account/credentials/:id', [CredentialsController, 'update'])
    router.delete('/settings/account/credentials/:id', [CredentialsController, 'destroy'])
    router.get('/settings/account/credentials/:id/oauth', [CredentialOAuthController, 'authorize'])
    router.get('/settings/credentials/oauth/callback', [CredentialOAuthController, 'callback'])

    router.get('/admin/plugins', [AdminPluginsController, 'index'])
    router.get('/admin/plugins/:id', [AdminPluginsController, 'show'])
    router.post('/admin/plugins/:id/plans/:plan', [AdminPluginsController, 'update'])
    router.get('/admin/ai-prices', [AdminAiPricesController, 'index'])
    router.post('/admin/ai-prices', [AdminAiPricesController, 'store'])
    router.put('/admin/ai-prices/:id', [AdminAiPricesController, 'update'])
    router.delete('/admin/ai-prices/:id', [AdminAiPricesController, 'destroy'])
    router.post('/admin/ai-credits', [AdminAiPricesController, 'grant'])
    router.get('/admin/workspaces', [AdminWorkspacesController, 'index'])
    router.put('/admin/workspaces/:id/plan', [AdminWorkspacesController, 'setWorkspacePlan'])
    router.put('/admin/workspaces/:id/suspended', [AdminWorkspacesController, 'setSuspended'])
    router.put('/admin/users/:id/plan', [AdminWorkspacesController, 'setUserPlan'])
    router.post('/admin/users/:id/ai-credits', [AdminWorkspacesController, 'grantCredits'])
    router.delete('/admin/users/:id/two-factor', [AdminWorkspacesController, 'resetTwoFactor'])
  })
  .use([middleware.auth(), middleware.workspace()])

// Stripe's signed events (docs/billing.md); no session, no CSRF (app/services/public_api.ts).
router.post('/api/stripe/webhook', [BillingController, 'webhook'])

// JSON calls of the app's own pages (session + XSRF header).
router
  .group(() => {
    router.patch('/api/users/:id', [UsersController, 'update'])
    router.post('/api/updateTourStatus', [UsersController, 'updateTourStatus'])
    router.get('/api/auth/session', [SessionController, 'show'])
    router.get('/api/onboarding/checklist', [OnboardingController, 'checklist'])
    router.post('/api/onboarding/checklist/dismiss', [OnboardingController, 'dismiss'])
    router.post('/api/credentials/:id/test', [CredentialsController, 'test'])
    router.post('/api/bots/:botId/blocks/test', [PluginsApiController, 'test'])
  })
  .use(middleware.auth())

// Application calls of data plugins (/api/postgres/findRecord...): the call names are the
// same for every data plugin; which plugins answer them is each plugin's `apiCalls` export.
router
  .post('/api/:plugin/:call', [PluginCallsController, 'run'])
  .where('call', /^(createTable|insertRecord|findRecord|updateRecord|deleteRecord)$/)
  .use([middleware.auth(), middleware.workspace()])

// Live options of the editors' forms (optionsFrom), in the current workspace.
router
  .post('/api/plugins/:pluginId/fetchers/:fetcher', [PluginFetchersController, 'run'])
  .use([middleware.auth(), middleware.workspace()])
