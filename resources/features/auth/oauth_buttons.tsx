import { useTranslation } from 'react-i18next'
import { buttonVariants } from '~/components/ui/button'
import { usePageProps } from '~/hooks/use_shared_props'
import { cn } from '~/lib/utils'

function GithubMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="currentColor">
      <path d="M12 .5C5.65.5.5 5.65.5 12a11.5 11.5 0 0 0 7.86 10.92c.58.1.79-.25.79-.56v-2c-3.2.7-3.87-1.37-3.87-1.37-.52-1.33-1.28-1.68-1.28-1.68-1.04-.71.08-.7.08-.7 1.15.08 1.76 1.18 1.76 1.18 1.03 1.76 2.69 1.25 3.35.96.1-.74.4-1.25.73-1.54-2.55-.29-5.24-1.28-5.24-5.68 0-1.26.45-2.28 1.18-3.09-.12-.29-.51-1.46.11-3.04 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.62 1.58.23 2.75.11 3.04.74.81 1.18 1.83 1.18 3.09 0 4.41-2.69 5.38-5.26 5.67.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 23.5 12C23.5 5.65 18.35.5 12 .5Z" />
    </svg>
  )
}

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4">
      <path
        fill="#4285F4"
        d="M23.5 12.27c0-.85-.08-1.66-.22-2.45H12v4.63h6.46a5.52 5.52 0 0 1-2.4 3.62v3h3.88c2.27-2.09 3.56-5.17 3.56-8.8Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.24 0 5.96-1.07 7.94-2.9l-3.88-3.01c-1.07.72-2.45 1.15-4.06 1.15-3.12 0-5.77-2.11-6.71-4.95H1.28v3.11A12 12 0 0 0 12 24Z"
      />
      <path
        fill="#FBBC05"
        d="M5.29 14.29A7.2 7.2 0 0 1 4.91 12c0-.8.14-1.57.38-2.29V6.6H1.28A12 12 0 0 0 0 12c0 1.94.46 3.77 1.28 5.4l4.01-3.11Z"
      />
      <path
        fill="#EA4335"
        d="M12 4.77c1.76 0 3.34.6 4.59 1.8l3.44-3.44C17.95 1.19 15.24 0 12 0A12 12 0 0 0 1.28 6.6l4.01 3.11C6.23 6.88 8.88 4.77 12 4.77Z"
      />
    </svg>
  )
}

const PROVIDERS = {
  github: { icon: GithubMark, labelKey: 'auth.oauth.github' },
  google: { icon: GoogleMark, labelKey: 'auth.oauth.google' },
} as const

/** One button per provider the server enabled; plain links (the server redirects to the provider). */
export function OauthButtons() {
  const { t } = useTranslation()
  const { oauthProviders } = usePageProps()
  const providers = (oauthProviders ?? []).filter((p) => p in PROVIDERS)
  if (providers.length === 0) return null
  return (
    <div className="grid gap-2">
      {providers.map((provider) => {
        const { icon: Icon, labelKey } = PROVIDERS[provider]
        return (
          <a
            key={provider}
            href={`/auth/${provider}/redirect`}
            data-testid={`oauth-${provider}`}
            className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}
          >
            <Icon />
            {t(labelKey)}
          </a>
        )
      })}
      <div className="relative my-2 text-center text-xs text-muted-foreground">
        <span aria-hidden className="absolute inset-x-0 top-1/2 h-px bg-border" />
        <span className="relative bg-card px-2">{t('auth.orContinueWithEmail')}</span>
      </div>
    </div>
  )
}
